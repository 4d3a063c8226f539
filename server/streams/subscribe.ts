/**
 * Subscribing a user stream through a list's own REST call: a call that
 * carries `connection_id` (and maybe `subscription_id`) subscribes that
 * stream to the list, when the spec's creation conditions hold, and its
 * answer says so in `meta.subscription_ids`. The domain decides; this only
 * gathers the call's facts around the route's own answer.
 */
import type { Request } from '@hapi/hapi'
import type { StreamServices, SubscribableEndpoint, SubscriptionFilters } from '../../data/index.js'
import { viewerOf } from '../auth.js'
import type { Envelope } from '../envelope.js'

export interface SubscribableList {
  endpoint: SubscribableEndpoint
  /** The list's post or channel id, from the path. */
  target?: number
  /** Lists without pagination subscribe whatever the query says. */
  paginated?: boolean
  /** The scopes the list needs, where the route checks them itself. */
  scopes?: readonly string[]
}

const FLAGS = [
  'include_incomplete',
  'include_private',
  'include_read',
  'include_muted',
  'include_deleted',
  'include_machine',
  'include_directed_posts',
  'has_oembed_photo',
] as const

/** The per-subscription filter options of the call's query. */
function filtersOf(query: Record<string, unknown>): SubscriptionFilters {
  const filters: SubscriptionFilters = {}
  for (const name of FLAGS) if (typeof query[name] === 'boolean') filters[name] = query[name] as boolean
  for (const name of ['channel_types', 'file_types'] as const) {
    const value = query[name]
    if (typeof value === 'string' && value !== '') filters[name] = value.split(',').map((s) => s.trim())
    else if (Array.isArray(value)) filters[name] = value.map(String)
  }
  return filters
}

/** Answers the route's envelope, subscribing the call's user stream to the list first when asked to. */
export async function answerSubscribing(
  request: Request,
  userStreams: StreamServices['user'],
  list: SubscribableList,
  answer: () => Promise<Envelope>,
): Promise<Envelope> {
  const query = request.query as Record<string, unknown>
  if (typeof query.connection_id !== 'string') return answer()
  const pending = await userStreams.prepare(viewerOf(request), {
    connection_id: query.connection_id,
    ...(typeof query.subscription_id === 'string' ? { subscription_id: query.subscription_id } : {}),
    endpoint: list.endpoint,
    ...(list.target === undefined ? {} : { target: list.target }),
    filters: filtersOf(query),
    scopes: list.scopes ?? request.route.settings.plugins?.svc?.scopes ?? [],
    page: { since_id: query.since_id, before_id: query.before_id, count: query.count as number | undefined },
    paginated: list.paginated ?? true,
  })
  if (!pending) return answer()
  let envelope: Envelope
  try {
    envelope = await answer()
  } catch (err) {
    await userStreams.undo(pending)
    throw err
  }
  const ids = await userStreams.confirm(pending, envelope.meta.more === true)
  if (ids) envelope.meta.subscription_ids = ids
  return envelope
}
