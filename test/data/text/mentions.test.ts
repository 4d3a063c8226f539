import t from 'tap'
import { isDirected, processText } from '../../../data/index.js'
import { postOptions } from './people.js'

const mentionsOf = async (text: string) => (await processText(text, undefined, postOptions())).entities.mentions

t.test('a mention names the canonical lower-case username and keeps the typed case in the text', async (t) => {
  const { text, entities } = await processText('@SteveStreza wrote this', undefined, postOptions())
  t.equal(text, '@SteveStreza wrote this')
  t.same(entities.mentions, [{ pos: 0, len: 12, name: 'stevestreza', id: '4', is_leading: true }])
})

t.test('only existing users are mentioned; @nobody stays plain text', async (t) => {
  t.same(await mentionsOf('hi @nobody and @bob'), [{ pos: 15, len: 4, name: 'bob', id: '2' }])
})

t.test('an e-mail address is neither a mention nor a link', async (t) => {
  const { entities } = await processText('write to alice@example.com today', undefined, postOptions())
  t.same(entities, { mentions: [], hashtags: [], links: [] })
})

t.test('a mention may follow punctuation such as = or (', async (t) => {
  t.same(
    (await mentionsOf('cc=@alice (@bob)')).map((m) => [m.pos, m.len, m.name]),
    [
      [3, 6, 'alice'],
      [11, 4, 'bob'],
    ],
  )
})

t.test('trailing punctuation ends a mention', async (t) => {
  for (const tail of ['.', ',', ':', "'s", ')']) {
    const [mention] = await mentionsOf(`thanks @carol${tail}`)
    t.equal(mention?.len, 6, `@carol${tail}`)
  }
})

t.test('a name longer than 20 characters is no mention, not even of its prefix', async (t) => {
  t.same(await mentionsOf('@alice_is_twenty_one_x'), [])
})

t.test('the run of mentions opening the text is leading; others omit is_leading', async (t) => {
  const mentions = await mentionsOf('@alice @bob\t@carol hi @voidfiles')
  t.same(
    mentions.map((m) => [m.name, m.is_leading]),
    [
      ['alice', true],
      ['bob', true],
      ['carol', true],
      ['voidfiles', undefined],
    ],
  )
  t.notOk('is_leading' in mentions[3], 'the key is left out, not false')
})

t.test('anything but whitespace between mentions ends the leading run', async (t) => {
  t.same(
    (await mentionsOf('@alice, @bob')).map((m) => m.is_leading),
    [true, undefined],
  )
  t.same(
    (await mentionsOf('hey @alice')).map((m) => m.is_leading),
    [undefined],
  )
  t.same(
    (await mentionsOf('@nobody @alice')).map((m) => m.is_leading),
    [undefined],
    'an unknown name is text, so the run never started',
  )
})

t.test('a post with a leading mention is directed; one mentioning in passing is not', async (t) => {
  t.ok(isDirected((await processText('@bob lunch?', undefined, postOptions())).entities))
  t.notOk(isDirected((await processText('lunch with @bob', undefined, postOptions())).entities))
})

t.test('positions count code points, so an emoji before a mention counts once', async (t) => {
  t.same(await mentionsOf('😊😊 @alice'), [{ pos: 3, len: 6, name: 'alice', id: '1' }])
})

t.test('a mention inside a link belongs to the link', async (t) => {
  const { entities } = await processText('see https://medium.com/@alice now', undefined, postOptions())
  t.same(entities.mentions, [])
  t.equal(entities.links[0].text, 'https://medium.com/@alice')
})
