/**
 * An activity POSTed to the shared inbox or to a user's whose signature svc
 * verified (draft-cavage.ts), taken as Fedify's inbox takes it once
 * verified (its `routeActivity`): acknowledged at once when its id was
 * processed already, else put in the durable queue, in the message Fedify's
 * queue listener reads (naming the user whose inbox it came to), and
 * acknowledged (202) once that is committed. Fedify's
 * inbox would first expand the activity's JSON-LD three times more (for a
 * Linked Data signature, for Object Integrity Proofs, and once again):
 * in a burst, the largest part of an inbox POST's time. The listener
 * reads the message as it reads its own (Fedify 1.5's format; the
 * federation tests fail if a version of Fedify reads it otherwise).
 */
import { randomUUID } from 'node:crypto'
import type { Activity, Context, KvKey, KvStore, MessageQueue } from '@fedify/fedify'

/** Where Fedify notes the activities processed (`kvPrefixes.activityIdempotence`). */
const PROCESSED_PREFIX = ['_fedify', 'activityIdempotence'] as const

/** Fedify's answers to an inbox POST taken. */
const accepted = (body: string) => new Response(body, { status: 202, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })

/** Takes verified `activity` (`json` as it came) at the inbox of `recipient` (a user's identifier), or at the shared inbox (null), of `ctx`'s origin: the answer to give. */
export async function takeVerified(
  ctx: Context<void>,
  kv: KvStore,
  queue: MessageQueue,
  json: unknown,
  activity: Activity,
  recipient: string | null,
): Promise<Response> {
  if (activity.id) {
    const processed: KvKey = [...PROCESSED_PREFIX, ctx.origin, activity.id.href]
    if ((await kv.get(processed)) === true) return accepted(`Activity <${activity.id.href}> has already been processed.`)
  }
  await queue.enqueue({
    type: 'inbox',
    id: randomUUID(),
    baseUrl: ctx.origin,
    activity: json,
    identifier: recipient,
    attempt: 0,
    started: new Date().toISOString(),
    traceContext: {},
  })
  return accepted('Activity is enqueued.')
}
