/**
 * Channel and message annotation rules that depend on the channel's type:
 * the core metadata types each kind of channel may carry, the read-only types
 * the server keeps on broadcast channels and their messages (a client's
 * values are dropped), one annotation per type with updates merged, and the
 * server-kept annotations themselves: `svc.core.fallback_url` on a broadcast
 * channel and its messages, `svc.core.broadcast.freq` on the channel.
 */
import { invalid } from '../errors.js'
import type { Annotation } from '../model/entities.js'
import {
  BROADCAST_FREQ,
  BROADCAST_MESSAGE_CORE_TYPES,
  BROADCAST_METADATA,
  CHANNEL_CORE_TYPES,
  CHANNEL_METADATA,
  checkAnnotations,
  checkCoreType,
  FALLBACK_URL,
  mergeAnnotations,
} from '../annotations/annotations.js'
import { BROADCAST_TYPE } from './channel-acl.js'

/**
 * One well-shaped channel annotation checked for a channel of `type`:
 * answers it as stored, or null for a read-only type the server keeps on
 * broadcast channels. Other core types are not checked on channels.
 * Errors: `invalid` (a metadata type on the wrong kind of channel, a
 * malformed core type).
 */
function checkChannelAnnotation(a: Annotation, type: string): Annotation | null {
  const broadcast = type === BROADCAST_TYPE
  if (broadcast && (a.type === FALLBACK_URL || a.type === BROADCAST_FREQ)) return null
  if (a.type === BROADCAST_FREQ || (a.type === BROADCAST_METADATA && !broadcast)) throw invalid(`${a.type} belongs to broadcast channels only`)
  if (a.type === CHANNEL_METADATA && broadcast) throw invalid(`${a.type} is not allowed on broadcast channels; use ${BROADCAST_METADATA}`)
  if (a.type === FALLBACK_URL) return checkCoreType(a)
  if (CHANNEL_CORE_TYPES[a.type]) checkCoreType(a, CHANNEL_CORE_TYPES)
  if (a.type === BROADCAST_METADATA && 'tags' in a.value) {
    // The tags of a broadcast are the server's to set.
    const { tags: _readOnly, ...value } = a.value
    return { type: a.type, value }
  }
  return a
}

/** The annotations of a new channel of `type`: checked, one per type (the last given wins). Errors: `invalid`. */
export function channelAnnotations(input: readonly unknown[], type: string): Annotation[] {
  return mergeChannelAnnotations([], input, type)
}

/**
 * `current` with an update's annotations applied: a given type replaces the
 * stored one, a type given without a value removes it, others stay.
 * Errors: `invalid` (as for a new channel, over 8192 bytes).
 */
export function mergeChannelAnnotations(current: readonly Annotation[], input: readonly unknown[], type: string): Annotation[] {
  return mergeAnnotations(current, input, (a) => checkChannelAnnotation(a, type))
}

/**
 * A message's annotations for a channel of `type`: on a broadcast channel
 * `svc.core.broadcast.message.metadata` is allowed and a client's
 * `svc.core.fallback_url` is dropped (the server keeps that one).
 * Errors: `invalid` as for any message.
 */
export function messageAnnotations(input: unknown, type: string): Annotation[] {
  if (type !== BROADCAST_TYPE) return checkAnnotations(input)
  const given = Array.isArray(input) ? input.filter((a: { type?: unknown } | null) => a?.type !== FALLBACK_URL) : input
  return checkAnnotations(given, BROADCAST_MESSAGE_CORE_TYPES)
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
