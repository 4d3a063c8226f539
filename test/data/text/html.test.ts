import t from 'tap'
import { escapeText, processText, renderHtml } from '../../../data/index.js'
import { postOptions } from './people.js'

const html = async (text: string) => {
  const processed = await processText(text, undefined, postOptions())
  return renderHtml(processed.text, processed.entities)
}
const wrap = (inner: string) => `<span itemscope="https://app.net/schemas/Post">${inner}</span>`

t.test('the recorded /text/process example renders exactly', async (t) => {
  t.equal(
    await html('#awesome @voidfiles'),
    wrap(
      '<span data-hashtag-name="awesome" itemprop="hashtag">#awesome</span> <span data-mention-id="3" data-mention-name="voidfiles" itemprop="mention">@voidfiles</span>',
    ),
  )
})

t.test('a mention keeps its typed case inside the span', async (t) => {
  t.equal(await html('@SteveStreza'), wrap('<span data-mention-id="4" data-mention-name="stevestreza" itemprop="mention">@SteveStreza</span>'))
})

t.test('\\r\\n becomes &#13;<br> and a lone \\n <br>', async (t) => {
  t.equal(escapeText('a\r\nb\nc'), 'a&#13;<br>b<br>c')
})

t.test('every non-ASCII code point is a decimal reference; emoji is one reference', async (t) => {
  t.equal(escapeText('café ’ 😊'), 'caf&#233; &#8217; &#128522;')
})

t.test('&, < and > are escaped while quotes and runs of spaces stay raw', async (t) => {
  t.equal(escapeText(`a & b <i> "q" 'q'   end`), `a &amp; b &lt;i&gt; "q" 'q'   end`)
})

t.test('& in a link href is escaped', async (t) => {
  t.equal(await html('http://example.com/?a=1&b=2'), wrap('<a href="http://example.com/?a=1&amp;b=2">http://example.com/?a=1&amp;b=2</a>'))
})

t.test('a non-ASCII hashtag name is written with references too', async (t) => {
  t.equal(await html('#Português'), wrap('<span data-hashtag-name="portugu&#234;s" itemprop="hashtag">#Portugu&#234;s</span>'))
})

t.test('positions after an emoji still wrap the right characters', async (t) => {
  t.equal(await html('😊 app.net'), wrap('&#128522; <a href="http://app.net">app.net</a>'))
})

t.test('a quote in a given URL cannot end the href attribute', async (t) => {
  const processed = await processText('x', { links: [{ pos: 0, len: 1, url: 'http://example.com/"onmouseover="x' }] }, postOptions())
  t.notMatch(renderHtml(processed.text, processed.entities), /href="[^"]*" onmouseover/)
  t.match(renderHtml(processed.text, processed.entities), '&quot;')
})

t.test('zero-length mentions of a machine-only post wrap nothing', async (t) => {
  t.equal(renderHtml('', { mentions: [{ pos: 0, len: 0, name: 'bob', id: '2', is_leading: true }], hashtags: [], links: [] }), wrap(''))
})
