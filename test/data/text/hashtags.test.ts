import t from 'tap'
import { processText } from '../../../data/index.js'
import { postOptions } from './people.js'

const hashtagsOf = async (text: string) => (await processText(text, undefined, postOptions())).entities.hashtags

t.test('a hashtag is named lower-case without # and its length counts the #', async (t) => {
  t.same(await hashtagsOf('#awesome @voidfiles'), [{ pos: 0, len: 8, name: 'awesome' }])
  t.same(await hashtagsOf('I like #Classical_Music'), [{ pos: 7, len: 16, name: 'classical_music' }])
})

t.test('hashtags may be in any script and purely numeric', async (t) => {
  t.same(
    (await hashtagsOf('#Português #новости #مصر #1')).map((h) => [h.name, h.len]),
    [
      ['português', 10],
      ['новости', 8],
      ['مصر', 4],
      ['1', 2],
    ],
  )
})

t.test('in ##1 only the second # starts a tag', async (t) => {
  t.same(await hashtagsOf('##1'), [{ pos: 1, len: 2, name: '1' }])
})

t.test('a # right after a word character starts no tag', async (t) => {
  t.same(await hashtagsOf('issue#12 and C#'), [])
})

t.test('a hashtag may follow whitespace, (, / or >', async (t) => {
  t.same(
    (await hashtagsOf('a\n#one (#two) x/#three >#four')).map((h) => h.name),
    ['one', 'two', 'three', 'four'],
  )
})

t.test('punctuation ends a hashtag', async (t) => {
  t.same(await hashtagsOf('#done. #next,'), [
    { pos: 0, len: 5, name: 'done' },
    { pos: 7, len: 5, name: 'next' },
  ])
})

t.test('a fragment inside a link is no hashtag', async (t) => {
  t.same(await hashtagsOf('http://example.com/page#section'), [])
})

t.test('hashtag positions count code points', async (t) => {
  t.same(await hashtagsOf('🎉 #party'), [{ pos: 2, len: 6, name: 'party' }])
})

t.test('the keycap emoji #️⃣ is no hashtag', async (t) => {
  t.same(await hashtagsOf('press #️⃣ then #go'), [{ pos: 15, len: 3, name: 'go' }])
})
