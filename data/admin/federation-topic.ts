/**
 * The `federation` watch topic: whether the instance federates and how far
 * its outbox has read the event log, and one line per remote server it
 * knows (by its accounts here, the deliveries to it, or a block): accounts,
 * block, pending, failing, given up and delivered deliveries, the last
 * error. Deliveries' outcomes are written without events, so the picture is
 * read again on every event and every few seconds.
 */
import type { Domain } from '../domain/domain.js'
import type { FederationHostLine, FederationPicture } from './protocol.js'
import { eitherOf, onEveryEvent, pollEvery, type WatchTopic } from './watch-topic.js'

async function picture(domain: Domain): Promise<FederationPicture> {
  const { federation } = domain
  const report = await federation.deliveryReport()
  const accounts = await federation.accountsByServer()
  const hosts = new Set([...accounts.keys(), ...report.hosts.map((h) => h.host), ...federation.blocks.list().map((b) => b.domain)])
  const deliveries = new Map(report.hosts.map((h) => [h.host, h]))
  const lines = [...hosts].sort().map((host): FederationHostLine => {
    const block = federation.blocks.of(host)
    const d = deliveries.get(host)
    return {
      host,
      accounts: accounts.get(host) ?? 0,
      block: block
        ? `${block.silence ? 'silenced' : 'suspended'}${block.reject_media ? ', no media' : ''}`
        : federation.blocks.leavesOut(host)
          ? 'not allowed'
          : '-',
      pending: d?.pending ?? 0,
      failing: d?.failing ?? 0,
      given_up: d?.given_up ?? 0,
      delivered: d?.delivered ?? 0,
      last_error: d?.last_error ? `${d.last_error_at} (try ${d.last_error_attempt}) ${d.last_error}` : null,
    }
  })
  const { cursor, head } = report.outbox
  const status = !report.federating
    ? (federation.off ?? 'federation is off')
    : cursor === null
      ? `federating as ${federation.site!.authority}; outbox not started yet`
      : `federating as ${federation.site!.authority}; outbox at event ${cursor} of ${head}`
  return { status, hosts: lines }
}

export const federationTopic: WatchTopic<FederationPicture> = { picture, changes: eitherOf(onEveryEvent, pollEvery(3000)) }
