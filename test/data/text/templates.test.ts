import t from 'tap'
import { fillTemplates, processText } from '../../../data/index.js'
import { postOptions } from './people.js'

const withLink = (url: string, extra: Record<string, unknown> = {}) => processText('Image', { links: [{ pos: 0, len: 5, url, ...extra }] }, postOptions())

t.test('{post_id} in a link URL becomes the new post id', async (t) => {
  const { entities } = await withLink('http://photos.app.net/{post_id}/1')
  t.equal(fillTemplates(entities, { post_id: '42' }).links[0].url, 'http://photos.app.net/42/1')
})

t.test('{message_id} is filled for messages and unknown variables stay untouched', async (t) => {
  const { entities } = await withLink('http://example.com/{message_id}/{mystery}')
  t.equal(fillTemplates(entities, { message_id: '7' }).links[0].url, 'http://example.com/7/{mystery}')
})

t.test('process_template: false keeps the template as written', async (t) => {
  const { entities } = await withLink('http://example.com/{post_id}', { process_template: false })
  t.equal(fillTemplates(entities, { post_id: '42' }).links[0].url, 'http://example.com/{post_id}')
})

t.test('filling keeps everything else of the link and the other entities', async (t) => {
  const { entities } = await processText('Image @alice', { links: [{ pos: 0, len: 5, url: 'http://photos.app.net/{post_id}' }] }, postOptions())
  const filled = fillTemplates(entities, { post_id: '9' })
  t.same(filled.links, [{ pos: 0, len: 5, text: 'Image', url: 'http://photos.app.net/9', amended_len: 22 }])
  t.same(filled.mentions, entities.mentions)
})
