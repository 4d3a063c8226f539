/**
 * The Federation tab: whether the instance federates and how far its
 * outbox is, then every remote server it knows with its accounts, its
 * block and the deliveries to it; the selected server's last error below;
 * a new failure or block shows at once.
 */
import t from 'tap'
import type { FederationPicture } from '../../data/index.js'
import { openConsole } from './open-console.js'
import { keys } from '../fixtures/screen.js'

const openOnFederation = async (t: { teardown(fn: () => unknown): void }) => {
  const opened = openConsole(t)
  await opened.ui.until('@alice')
  opened.ui.press('9')
  await opened.ui.until('mastodon.example')
  return opened
}

t.test('the Federation tab lists each known server with its accounts, block and deliveries, and the last error of the selected one', async (t) => {
  const { ui } = await openOnFederation(t)
  const frame = ui.frame()
  t.match(frame, /federating as svc\.example; outbox at event 120 of 120/)
  t.match(frame, /SERVER\s+ACCOUNTS\s+BLOCK\s+PENDING\s+FAILING\s+GIVEN UP\s+DELIVERED/)
  t.match(frame, /› mastodon\.example\s+12\s+-\s+0\s+0\s+0\s+340/)
  t.match(frame, /slow\.example:8443\s+2\s+-\s+3\s+2\s+1\s+5/)
  t.match(frame, /spam\.example\s+0\s+suspended, no media\s+0\s+0\s+0\s+0/)
  t.match(frame, /mastodon\.example\n\s+no delivery failed/)
  ui.press(keys.down)
  t.match(await ui.until('ECONNREFUSED'), /slow\.example:8443\n\s+last error 2026-11-27T10:00:00\.000Z \(try 4\) connect ECONNREFUSED 203\.0\.113\.9:8443/)
})

t.test('a block made or a delivery that failed shows at once', async (t) => {
  const { ui, push } = await openOnFederation(t)
  push<FederationPicture>('federation', (p) => ({
    ...p,
    hosts: p.hosts.map((h) => (h.host === 'mastodon.example' ? { ...h, block: 'silenced', failing: 1, pending: 1 } : h)),
  }))
  t.match(await ui.until('silenced'), /mastodon\.example\s+12\s+silenced\s+1\s+1\s+0\s+340/)
})
