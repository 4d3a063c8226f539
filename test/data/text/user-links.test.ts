import t from 'tap'
import { processText, renderHtml } from '../../../data/index.js'
import { postOptions } from './people.js'

t.test('a link whose anchor is not its domain gets [domain] appended, outside the anchor', async (t) => {
  const { text, entities } = await processText('I love this website!', { links: [{ pos: 7, len: 12, url: 'https://alpha.app.net' }] }, postOptions())
  t.equal(text, 'I love this website [alpha.app.net]!')
  t.same(entities.links, [{ pos: 7, len: 12, text: 'this website', url: 'https://alpha.app.net', amended_len: 28 }])
  t.equal(
    renderHtml(text, entities),
    '<span itemscope="https://app.net/schemas/Post">I love <a href="https://alpha.app.net">this website</a> [alpha.app.net]!</span>',
  )
})

t.test('amended_len is left out when the anchor already is the domain', async (t) => {
  const { text, entities } = await processText('go to alpha.app.net', { links: [{ pos: 6, len: 13, url: 'https://alpha.app.net/bob' }] }, postOptions())
  t.equal(text, 'go to alpha.app.net')
  t.notOk('amended_len' in entities.links[0])
})

t.test('entities after an amended link shift by the inserted characters', async (t) => {
  const { text, entities } = await processText('Image for @bob #pics', { links: [{ pos: 0, len: 5, url: 'http://photos.app.net/1' }] }, postOptions())
  t.equal(text, 'Image [photos.app.net] for @bob #pics')
  t.equal(entities.links[0].amended_len, 22)
  t.same(entities.mentions, [{ pos: 27, len: 4, name: 'bob', id: '2' }])
  t.same(entities.hashtags, [{ pos: 32, len: 5, name: 'pics' }])
})

t.test('the appended domain does not count toward the length limit', async (t) => {
  const body = 'x'.repeat(250) + ' site'
  const { text } = await processText(body, { links: [{ pos: 251, len: 4, url: 'https://alpha.app.net' }] }, postOptions())
  t.equal([...text].length, 255 + ' [alpha.app.net]'.length)
})

t.test('user-given link positions count code points', async (t) => {
  const { text, entities } = await processText('😊 here', { links: [{ pos: 2, len: 4, url: 'http://example.com' }] }, postOptions())
  t.equal(text, '😊 here [example.com]')
  t.same(entities.links, [{ pos: 2, len: 4, text: 'here', url: 'http://example.com', amended_len: 18 }])
})

t.test('sending a links list, even empty, turns link detection off', async (t) => {
  t.same((await processText('see app.net', { links: [] }, postOptions())).entities.links, [])
})

t.test('parse_links turns detection back on, and the given link wins where they meet', async (t) => {
  const { entities } = await processText(
    'app.net and http://example.com',
    { parse_links: true, links: [{ pos: 0, len: 7, url: 'https://app.net/about' }] },
    postOptions(),
  )
  t.same(
    entities.links.map((l) => [l.pos, l.url]),
    [
      [0, 'https://app.net/about'],
      [12, 'http://example.com'],
    ],
  )
})

t.test('mentions and hashtags are still parsed when links are given', async (t) => {
  const { entities } = await processText('@alice #news', { links: [] }, postOptions())
  t.equal(entities.mentions.length, 1)
  t.equal(entities.hashtags.length, 1)
})

t.test('a given link covering a whole mention or hashtag replaces it', async (t) => {
  const { entities } = await processText('ask @alice about #news', { links: [{ pos: 0, len: 22, url: 'http://example.com' }] }, postOptions())
  t.same(entities.mentions, [])
  t.same(entities.hashtags, [])
  t.equal(entities.links.length, 1)
})

t.test('a given link cutting through a mention or hashtag is refused', async (t) => {
  await t.rejects(processText('ask @alice', { links: [{ pos: 0, len: 6, url: 'http://example.com' }] }, postOptions()), { code: 'invalid' })
  await t.rejects(processText('#news today', { links: [{ pos: 2, len: 9, url: 'http://example.com' }] }, postOptions()), { code: 'invalid' })
})

t.test('given links must stay inside the text, not overlap, and point at http(s)', async (t) => {
  const cases = [
    { links: [{ pos: 3, len: 9, url: 'http://example.com' }] },
    { links: [{ pos: -1, len: 2, url: 'http://example.com' }] },
    { links: [{ pos: 0, len: 0, url: 'http://example.com' }] },
    { links: [{ pos: 0, len: 1.5, url: 'http://example.com' }] },
    {
      links: [
        { pos: 0, len: 3, url: 'http://example.com' },
        { pos: 2, len: 2, url: 'http://example.org' },
      ],
    },
    { links: [{ pos: 0, len: 3, url: 'javascript:alert(1)' }] },
    { links: [{ pos: 0, len: 3, url: 'ftp://example.com' }] },
    { links: [{ pos: 0, len: 3, url: 'not a url' }] },
  ]
  for (const entities of cases) await t.rejects(processText('hello', entities, postOptions()), { code: 'invalid' }, JSON.stringify(entities))
})

t.test('adjacent given links may touch', async (t) => {
  const { entities } = await processText(
    'ab',
    {
      links: [
        { pos: 0, len: 1, url: 'http://a.com' },
        { pos: 1, len: 1, url: 'http://b.com' },
      ],
    },
    postOptions(),
  )
  t.same(
    entities.links.map((l) => [l.pos, l.len, l.amended_len]),
    [
      [0, 1, 9],
      [9, 1, 9],
    ],
  )
})
