import t from 'tap'
import { processText } from '../../../data/index.js'
import { postOptions } from './people.js'

const linksOf = async (text: string) => (await processText(text, undefined, postOptions())).entities.links

t.test('an http(s) URL is a link whose text is what was typed', async (t) => {
  t.same(await linksOf('read https://alpha.app.net/bob/post/1 now'), [
    { pos: 5, len: 32, text: 'https://alpha.app.net/bob/post/1', url: 'https://alpha.app.net/bob/post/1' },
  ])
})

t.test('a bare domain with a real TLD links to http:// plus the text, case kept', async (t) => {
  for (const domain of ['App.net', 'telegraph.co.uk', 'www.vlachbild.de', 'skysports.com/skysportsnews']) {
    t.same(await linksOf(`see ${domain} today`), [{ pos: 4, len: [...domain].length, text: domain, url: `http://${domain}` }], domain)
  }
})

t.test('words with dots but no real TLD stay text', async (t) => {
  t.same(await linksOf('e.g. open index.html or node.js, i.e. later'), [])
})

t.test('sentence punctuation after a link is not part of it', async (t) => {
  const links = await linksOf('(see app.net). Or http://example.com/a, http://example.com/b!')
  t.same(
    links.map((l) => l.text),
    ['app.net', 'http://example.com/a', 'http://example.com/b'],
  )
})

t.test('a closing parenthesis that balances one in the URL stays', async (t) => {
  t.same(
    (await linksOf('see http://en.wikipedia.org/wiki/Mars_(planet).')).map((l) => l.url),
    ['http://en.wikipedia.org/wiki/Mars_(planet)'],
  )
})

t.test('only http and https targets become links', async (t) => {
  t.same(await linksOf('ftp://files.example.org and javascript:alert(1) and mailto:bob@example.com'), [])
})

t.test('link positions count code points', async (t) => {
  t.same(await linksOf('😊 app.net'), [{ pos: 2, len: 7, text: 'app.net', url: 'http://app.net' }])
})

t.test('links, mentions and hashtags keys are always present', async (t) => {
  t.same((await processText('plain words', undefined, postOptions())).entities, { mentions: [], hashtags: [], links: [] })
})

t.test('a URL with a query keeps it whole', async (t) => {
  t.same(
    (await linksOf('http://example.com/?a=1&b=2')).map((l) => l.url),
    ['http://example.com/?a=1&b=2'],
  )
})

t.test('CJK punctuation right after a URL ends it', async (t) => {
  t.same(
    (await linksOf('見て http://example.com/a。次は app.net、どうぞ')).map((l) => l.text),
    ['http://example.com/a', 'app.net'],
  )
})

t.test('a URL hiding its host behind user info shows the real domain', async (t) => {
  const { text, entities } = await processText('http://app.net@evil.example.com/login', undefined, postOptions())
  t.equal(text, 'http://app.net@evil.example.com/login [evil.example.com]')
  t.equal(entities.links[0].amended_len, 37 + ' [evil.example.com]'.length)
})

t.test('generic and country-code TLDs both count, sentence words do not', async (t) => {
  t.same(
    (await linksOf('example.io example.museum example.co.jp bücher.de and I was done.Today')).map((l) => l.text),
    ['example.io', 'example.museum', 'example.co.jp', 'bücher.de'],
  )
})
