import t from 'tap'
import { MAX_USER_MENTIONS, isDirected, processText } from '../../../data/index.js'
import { postOptions } from './people.js'

t.test('text up to the limit is fine and one character more is refused', async (t) => {
  await processText('a'.repeat(256), undefined, postOptions())
  await t.rejects(processText('a'.repeat(257), undefined, postOptions()), { code: 'invalid', message: 'text is longer than 256 characters' })
})

t.test('the limit counts code points, so 256 emoji fit', async (t) => {
  const { text } = await processText('😊'.repeat(256), undefined, postOptions())
  t.equal(text.length, 512)
})

t.test('messages get the larger limit they are given', async (t) => {
  await processText('a'.repeat(2048), undefined, postOptions({ maxLength: 2048 }))
  await t.rejects(processText('a'.repeat(2049), undefined, postOptions({ maxLength: 2048 })), { message: 'text is longer than 2048 characters' })
})

t.test('empty or blank text is refused unless allowed', async (t) => {
  await t.rejects(processText('', undefined, postOptions()), { code: 'invalid' })
  await t.rejects(processText('  \n ', undefined, postOptions()), { code: 'invalid' })
  t.same(await processText('', undefined, postOptions({ allowEmpty: true })), { text: '', entities: { mentions: [], hashtags: [], links: [] } })
})

t.test('user-given mentions are refused where not allowed', async (t) => {
  await t.rejects(processText('hi', { mentions: [{ name: 'bob' }] }, postOptions()), { code: 'invalid' })
})

t.test('user-given mentions by name or id address a machine-only post', async (t) => {
  const { entities } = await processText(
    '',
    { mentions: [{ name: 'Bob' }, { id: '5' }, { id: 1 }] },
    postOptions({ allowEmpty: true, allowUserMentions: true }),
  )
  t.same(entities.mentions, [
    { pos: 0, len: 0, name: 'bob', id: '2', is_leading: true },
    { pos: 0, len: 0, name: 'carol', id: '5', is_leading: true },
    { pos: 0, len: 0, name: 'alice', id: '1', is_leading: true },
  ])
  t.ok(isDirected(entities))
})

t.test('a user named twice is mentioned once', async (t) => {
  const { entities } = await processText('@bob', { mentions: [{ name: 'bob' }, { id: 2 }] }, postOptions({ allowUserMentions: true }))
  t.same(
    entities.mentions.map((m) => [m.id, m.pos, m.len]),
    [['2', 0, 4]],
  )
})

t.test('user-given mentions must name existing users, at most ten', async (t) => {
  const allowed = postOptions({ allowEmpty: true, allowUserMentions: true })
  await t.rejects(processText('', { mentions: [{ name: 'nobody' }] }, allowed), { code: 'invalid' })
  await t.rejects(processText('', { mentions: [{ id: 999 }] }, allowed), { code: 'invalid' })
  await t.rejects(processText('', { mentions: [{} as never] }, allowed), { code: 'invalid' })
  const eleven = Array.from({ length: MAX_USER_MENTIONS + 1 }, () => ({ name: 'bob' }))
  await t.rejects(processText('', { mentions: eleven }, allowed), { code: 'invalid' })
})

t.test('entity ranges never overlap', async (t) => {
  const { entities } = await processText('@alice#tag http://x.com/#frag @bob.com app.net/@carol #x', undefined, postOptions())
  const ranges = [...entities.mentions, ...entities.hashtags, ...entities.links].map((e) => [e.pos, e.pos + e.len]).sort((a, b) => a[0] - b[0])
  ranges.forEach((r, i) => {
    if (i > 0) t.ok(ranges[i - 1][1] <= r[0], `${JSON.stringify(ranges[i - 1])} then ${JSON.stringify(r)}`)
  })
  t.ok(ranges.length >= 4)
})

t.test('the reference example: a hashtag then a mention', async (t) => {
  const { text, entities } = await processText('#awesome @voidfiles', undefined, postOptions())
  t.equal(text, '#awesome @voidfiles')
  t.same(entities, {
    mentions: [{ pos: 9, len: 10, name: 'voidfiles', id: '3' }],
    hashtags: [{ pos: 0, len: 8, name: 'awesome' }],
    links: [],
  })
})

t.test('text with a lone surrogate is refused', async (t) => {
  await t.rejects(processText('broken \ud83d here', undefined, postOptions()), { code: 'invalid', message: 'text is not valid Unicode' })
})

t.test('user-given mentions that are not objects are refused, not crashed on', async (t) => {
  await t.rejects(processText('', { mentions: ['bob' as never] }, postOptions({ allowEmpty: true, allowUserMentions: true })), { code: 'invalid' })
})
