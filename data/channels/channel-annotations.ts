/**
 * Channel and message annotation rules that depend on the channel's type:
 * the core metadata types each kind of channel may carry, the read-only types
 * the server keeps on broadcast channels and their messages (a client's
 * values are dropped), one annotation per type with updates merged, and the
 * server-kept annotations themselves: `svc.core.fallback_url` on a broadcast
 * channel and its messages, `svc.core.broadcast.freq` on the channel.
 */
import { invalid } from '../errors.js'
import { CHANNEL_DESCRIPTION_MAX_LENGTH, CHANNEL_MAX_TAGS, CHANNEL_TAG_MAX_LENGTH, CHANNEL_TITLE_MAX_LENGTH, MESSAGE_SUBJECT_MAX_LENGTH } from '../limits.js'
import type { Annotation } from '../model/entities.js'
import { checkAnnotations as checkPostLike, type Check } from '../annotations/annotations.js'
import { BROADCAST_TYPE } from './channel-acl.js'
import { checkAnnotations as checkShape } from './channel-input.js'
import { mergeUserAnnotations } from '../users/profile.js'

export const FALLBACK_URL = 'svc.core.fallback_url'
export const BROADCAST_FREQ = 'svc.core.broadcast.freq'
const CHANNEL_METADATA = 'svc.core.channel.metadata'
export const BROADCAST_METADATA = 'svc.core.broadcast.metadata'
export const BROADCAST_MESSAGE_METADATA = 'svc.core.broadcast.message.metadata'

const text = (v: unknown, max: number): boolean => typeof v === 'string' && [...v].length <= max
const title = (value: Record<string, unknown>): string | null =>
  typeof value.title === 'string' && value.title.length > 0 && text(value.title, CHANNEL_TITLE_MAX_LENGTH)
    ? null
    : `title must be a string of 1 to ${CHANNEL_TITLE_MAX_LENGTH} characters`
const description = (value: Record<string, unknown>): string | null =>
  text(value.description, CHANNEL_DESCRIPTION_MAX_LENGTH) ? null : `description must be a string of at most ${CHANNEL_DESCRIPTION_MAX_LENGTH} characters`
const tags = (value: Record<string, unknown>): string | null =>
  value.tags === undefined ||
  (Array.isArray(value.tags) && value.tags.length <= CHANNEL_MAX_TAGS && value.tags.every((t) => text(t, CHANNEL_TAG_MAX_LENGTH) && t !== ''))
    ? null
    : `tags must list at most ${CHANNEL_MAX_TAGS} tags of at most ${CHANNEL_TAG_MAX_LENGTH} characters`

const CHANNEL_CHECKS: Record<string, Check> = {
  [CHANNEL_METADATA]: (v) => title(v) ?? description(v) ?? tags(v),
  [BROADCAST_METADATA]: (v) => title(v) ?? (v.description === undefined ? null : description(v)),
}

const subject: Check = (v) =>
  typeof v.subject === 'string' && v.subject.length > 0 && text(v.subject, MESSAGE_SUBJECT_MAX_LENGTH)
    ? null
    : `subject must be a string of 1 to ${MESSAGE_SUBJECT_MAX_LENGTH} characters`

/**
 * One channel annotation checked for a channel of `type`: answers it as
 * stored, or null for a read-only type the server keeps on broadcast
 * channels. Errors: `invalid` (shape, a metadata type on the wrong kind of
 * channel, a malformed core type).
 */
export function checkChannelAnnotation(a: Annotation, type: string): Annotation | null {
  checkShape([a])
  const broadcast = type === BROADCAST_TYPE
  if (broadcast && (a.type === FALLBACK_URL || a.type === BROADCAST_FREQ)) return null
  if (a.type === BROADCAST_FREQ || (a.type === BROADCAST_METADATA && !broadcast)) throw invalid(`${a.type} belongs to broadcast channels only`)
  if (a.type === CHANNEL_METADATA && broadcast) throw invalid(`${a.type} is not allowed on broadcast channels; use ${BROADCAST_METADATA}`)
  if (a.type === FALLBACK_URL) return checkPostLike([a])[0]
  const problem = CHANNEL_CHECKS[a.type]?.(a.value)
  if (problem) throw invalid(`annotation ${a.type}: ${problem}`)
  if (a.type === BROADCAST_METADATA && 'tags' in a.value) {
    // The tags of a broadcast are the server's to set.
    const { tags: _readOnly, ...value } = a.value
    return { type: a.type, value }
  }
  return a
}

/** The annotations of a new channel of `type`: checked, one per type (the last given wins). Errors: `invalid`. */
export function channelAnnotations(input: readonly Annotation[], type: string): Annotation[] {
  return mergeChannelAnnotations([], input, type)
}

/**
 * `current` with an update's annotations applied: a given type replaces the
 * stored one, a type given without a value removes it, others stay.
 * Errors: `invalid` (as for a new channel, over 8192 bytes).
 */
export function mergeChannelAnnotations(current: readonly Annotation[], input: readonly unknown[], type: string): Annotation[] {
  const merged = mergeUserAnnotations(current, input, (a) => checkChannelAnnotation(a, type))
  checkShape(merged)
  return merged
}

/**
 * A message's annotations for a channel of `type`: on a broadcast channel
 * `svc.core.broadcast.message.metadata` is allowed and a client's
 * `svc.core.fallback_url` is dropped (the server keeps that one).
 * Errors: `invalid` as for any message.
 */
export function messageAnnotations(input: unknown, type: string): Annotation[] {
  if (type !== BROADCAST_TYPE) return checkPostLike(input)
  const given = Array.isArray(input) ? input.filter((a: { type?: unknown } | null) => a?.type !== FALLBACK_URL) : input
  return checkPostLike(given, { [BROADCAST_MESSAGE_METADATA]: subject })
}

/** Where to view a broadcast channel: a short address on this server. */
export const channelFallbackUrl = (baseUrl: string, channelId: number): string => `${baseUrl}/c/${channelId.toString(36)}`

/** Where to view one message of a broadcast channel. */
export const messageFallbackUrl = (baseUrl: string, channelId: number, messageId: number): string =>
  `${channelFallbackUrl(baseUrl, channelId)}/m/${messageId.toString(36)}`

/** The id a fallback URL's channel or message code (base 36, either case) stands for. */
export const idOfCode = (code: string): number => parseInt(code, 36)

const DAY_MS = 86_400_000
/** How far back the publishing frequency looks. */
export const FREQ_WINDOW_DAYS = 30

const about = (n: number, unit: string): string => {
  const rounded = Math.round(n)
  return `About ${rounded} message${rounded === 1 ? '' : 's'} a ${unit}`
}

/**
 * How often a broadcast channel publishes: `intensity` is its live messages
 * per day over the last 30 days (or its whole life, if shorter, at least a
 * day), `avg_freq` the same in words.
 */
export function broadcastFrequency(messageTimes: readonly number[], createdAt: number, now: number): { avg_freq: string; intensity: number } {
  const since = Math.max(createdAt, now - FREQ_WINDOW_DAYS * DAY_MS)
  const days = Math.max(1, (now - since) / DAY_MS)
  const perDay = messageTimes.filter((t) => t >= since).length / days
  const intensity = Math.round(perDay * 1000) / 1000
  if (perDay >= 1) return { avg_freq: about(perDay, 'day'), intensity }
  if (perDay * 7 >= 1) return { avg_freq: about(perDay * 7, 'week'), intensity }
  if (perDay * 30 >= 1) return { avg_freq: about(perDay * 30, 'month'), intensity }
  return { avg_freq: 'Less than one message a month', intensity }
}

/** The annotations a channel shows: its own, plus on a broadcast channel the server-kept ones. */
export function shownChannelAnnotations(
  channel: { id: number; type: string; annotations: readonly Annotation[] },
  baseUrl: string,
  freq: { avg_freq: string; intensity: number } | undefined,
): Annotation[] {
  if (channel.type !== BROADCAST_TYPE) return [...channel.annotations]
  const kept: Annotation[] = [{ type: FALLBACK_URL, value: { url: channelFallbackUrl(baseUrl, channel.id) } }]
  if (freq) kept.push({ type: BROADCAST_FREQ, value: { ...freq } })
  return [...channel.annotations, ...kept]
}
