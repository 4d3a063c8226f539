import t from 'tap'
import { processText, renderHtml } from '../../../data/index.js'
import { postOptions } from './people.js'

const markdown = { parse_markdown_links: true }

t.test('a markdown link becomes its anchor plus a link entity, with the domain shown', async (t) => {
  const { text, entities } = await processText('I love [this website](https://alpha.app.net)!', markdown, postOptions())
  t.equal(text, 'I love this website [alpha.app.net]!')
  t.same(entities.links, [{ pos: 7, len: 12, text: 'this website', url: 'https://alpha.app.net', amended_len: 28 }])
})

t.test('a markdown link whose anchor is the domain adds nothing', async (t) => {
  const { text, entities } = await processText('[App.net](http://app.net) rocks', markdown, postOptions())
  t.equal(text, 'App.net rocks')
  t.same(entities.links, [{ pos: 0, len: 7, text: 'App.net', url: 'http://app.net' }])
})

t.test('the length limit applies to the text after markdown is removed', async (t) => {
  const long = `${'x'.repeat(250)} [here](http://example.com/a/very/long/path/indeed)`
  const { text } = await processText(long, markdown, postOptions())
  t.ok(text.startsWith('x'.repeat(250) + ' here [example.com]'))
})

t.test('links supplied beside markdown are discarded', async (t) => {
  const { entities } = await processText('[a](http://a.com) b', { ...markdown, links: [{ pos: 2, len: 1, url: 'http://b.com' }] }, postOptions())
  t.same(
    entities.links.map((l) => l.url),
    ['http://a.com'],
  )
})

t.test('plain links are still detected beside markdown links', async (t) => {
  const { entities } = await processText('[docs](https://example.com/docs) and app.net', markdown, postOptions())
  t.same(
    entities.links.map((l) => l.text),
    ['docs', 'app.net'],
  )
})

t.test('markdown with a non-http target stays as typed', async (t) => {
  const { text, entities } = await processText('[x](javascript:alert(1))', markdown, postOptions())
  t.equal(text, '[x](javascript:alert(1))')
  t.same(entities.links, [])
})

t.test('without parse_markdown_links the brackets are left alone', async (t) => {
  const { text } = await processText('[a](http://a.com)', undefined, postOptions())
  t.equal(text, '[a](http://a.com)')
})

t.test('markdown links render as anchors followed by the plain domain', async (t) => {
  const { text, entities } = await processText('[pic](http://photos.app.net/5/1) by @bob', markdown, postOptions())
  t.equal(
    renderHtml(text, entities),
    '<span itemscope="https://app.net/schemas/Post"><a href="http://photos.app.net/5/1">pic</a> [photos.app.net] by <span data-mention-id="2" data-mention-name="bob" itemprop="mention">@bob</span></span>',
  )
})
