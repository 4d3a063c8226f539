/**
 * Answers presented once and kept: a timeline its reader refreshes, a post
 * many read. Each kept answer notes what it was read from (touches: the
 * viewer, the posts and users it shows, whose posts it lists); every event
 * of the log marks what it touches, before the write that made it is
 * acknowledged, and an answer read from anything marked after it began is
 * never served again. So a kept answer is always what presenting it now
 * would give.
 *
 * Only where this process sees every write as it happens: on a store shared
 * by several nodes, another node's write reaches this one a little later,
 * and a reader must still see their own write at once.
 */
import type { Request } from '@hapi/hapi'
import { LRUCache } from 'lru-cache'
import { EVERYTHING, TOUCH, touchesOf, type Domain, type DomainViews, type Touch } from '../../data/index.js'
import type { Meta } from '../api/index.js'
import { rawDataOf, type Envelope } from '../envelope.js'
import { RawJson } from '../json-text.js'
import { contextOf, type PresentContext, type PresentOptions } from './context.js'

/** Touches are hashed into this many slots; two touches sharing one only drop an answer sooner. */
const SLOTS = 1 << 18

const slotOf = (touch: Touch): number => (Math.imul(touch.id, 0x9e3779b1) + Math.imul(touch.kind, 0x85ebca77)) >>> 14

interface Kept {
  /** The clock when its presenting began. */
  since: number
  slots: Uint32Array
  data: RawJson
  meta: Meta
}

/** Over this many touches an answer (a timeline of someone following thousands) is not worth keeping. */
const MAX_TOUCHES = 4_000

export class AnswerCache {
  /** Per slot, the clock when an event last touched it. */
  private readonly touchedAt = new Float64Array(SLOTS)
  private clock = 0
  private everythingAt = 0
  private readonly kept = new LRUCache<string, Kept>({
    max: 2_000,
    maxSize: 16_000_000,
    // The text and its UTF-8 bytes, both held once it is served.
    sizeCalculation: (kept) => Math.max(1, kept.data.json.length + Buffer.byteLength(kept.data.json)),
  })

  /**
   * Calls answered once and not kept. An answer is kept from its second call
   * on: on a large instance most readers ask for a timeline once in a
   * while, and keeping each of those answers (its reads noted, its text
   * made whole) only pushed out the ones asked again.
   */
  private readonly seen = new LRUCache<string, true>({ max: 20_000 })

  /** Is the call `key` worth keeping: has it been asked before? Remembers that it has been now. */
  admits(key: string): boolean {
    if (this.seen.has(key)) return true
    this.seen.set(key, true)
    return false
  }

  /** The clock now: an answer begun now is kept while nothing it reads is touched later. */
  now(): number {
    return this.clock
  }

  get(key: string): Envelope | undefined {
    const kept = this.kept.get(key)
    if (!kept) return undefined
    if (this.fresh(kept)) return { data: kept.data, meta: { ...kept.meta } }
    this.kept.delete(key)
    return undefined
  }

  /** Keeps `envelope` (a success) under `key`, unless something it read was touched since `since`. */
  set(key: string, since: number, envelope: Envelope, reads: readonly Touch[]): void {
    if (reads.length > MAX_TOUCHES) return
    const kept = { since, slots: Uint32Array.from(reads, slotOf), data: asOneJson(envelope.data), meta: { ...envelope.meta } }
    if (this.fresh(kept)) this.kept.set(key, kept)
  }

  /** What the event log calls for each event, in order. */
  touch(touches: readonly Touch[] | typeof EVERYTHING): void {
    const at = ++this.clock
    if (touches === EVERYTHING) {
      this.everythingAt = at
      this.kept.clear()
      return
    }
    for (const touch of touches) this.touchedAt[slotOf(touch)] = at
  }

  private fresh(kept: Pick<Kept, 'since' | 'slots'>): boolean {
    if (this.everythingAt > kept.since) return false
    for (const slot of kept.slots) if (this.touchedAt[slot] > kept.since) return false
    return true
  }
}

/** The data as one text, so serving it again writes one string. */
const asOneJson = (data: unknown): RawJson => rawDataOf(data) ?? new RawJson(JSON.stringify(data))

const caches = new WeakMap<Domain, AnswerCache | null>()

/** The domain's cache, listening to its event log from the first call; none where nodes share the store. */
export function answerCacheOf(domain: Domain): AnswerCache | null {
  let cache = caches.get(domain)
  if (cache === undefined) {
    cache = domain.node.shared ? null : new AnswerCache()
    const listening = cache
    if (listening) domain.events.onAny((event) => listening.touch(touchesOf(event)))
    caches.set(domain, cache)
  }
  return cache
}

// Annotations may carry file addresses signed for a time and for the viewer's token: presented each time.
const asksAnnotations = (o: PresentOptions): boolean =>
  Boolean(o.include_annotations || o.include_post_annotations || o.include_user_annotations || o.include_channel_annotations || o.include_message_annotations)

/** The query part of the address as sent: it decides `request.query`, and reading it builds no URL object. */
const rawSearchOf = (request: Request): string => {
  const url = request.raw.req.url ?? ''
  const at = url.indexOf('?')
  return at < 0 ? '' : url.slice(at)
}

/**
 * The route's answer, from the cache when an answer to the same call (path,
 * query, viewer, app, public address) is still fresh. `present` records
 * what it reads in `ctx.reads`, or sets it to null when what it answers
 * cannot be kept.
 */
export async function cachedAnswer(
  request: Request,
  { views, answers: cache }: { views: DomainViews; answers: AnswerCache | null },
  present: (ctx: PresentContext) => Promise<Envelope>,
): Promise<Envelope> {
  const ctx = contextOf(request, views)
  if (!cache || asksAnnotations(ctx.options)) return present(ctx)
  const viewerId = ctx.viewer.user?.id ?? 0
  const key = `${viewerId} ${ctx.viewer.app?.id ?? 0} ${ctx.baseUrl} ${request.path}${rawSearchOf(request)}`
  const hit = cache.get(key)
  if (hit) return hit
  if (!cache.admits(key)) return present(ctx)
  const since = cache.now()
  ctx.reads = [{ kind: TOUCH.viewer, id: viewerId }]
  const envelope = await present(ctx)
  if (ctx.reads) cache.set(key, since, envelope, ctx.reads)
  return envelope
}
