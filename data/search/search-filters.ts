/**
 * The filters of post search (App.net's list, all ANDed; list filters need
 * every value): each turned into a test of a post row, and the narrowest
 * index the given filters allow as the source of candidate ids.
 */
import type { Annotation } from '../model/entities.js'
import type { PostRow } from '../model/post.js'
import type { Range, Readers } from '../store/port.js'
import { hasAnnotationType, hasLocation, isDirectedPost } from '../posts/post-traits.js'
import { invalid } from '../errors.js'
import { MAX_SCORE, parseTextQuery, scorePost, type TextQuery } from './search-query.js'

export interface SearchFilters {
  hashtags?: string[]
  links?: string[]
  link_domains?: string[]
  /** Usernames, without `@`. */
  mentions?: string[]
  leading_mentions?: string[]
  annotation_types?: string[]
  attachment_types?: string[]
  crosspost_url?: string
  crosspost_domain?: string
  place_id?: string
  is_reply?: boolean
  is_directed?: boolean
  has_location?: boolean
  has_checkin?: boolean
  is_crosspost?: boolean
  has_attachment?: boolean
  has_oembed_photo?: boolean
  has_oembed_video?: boolean
  has_oembed_html5video?: boolean
  has_oembed_rich?: boolean
  language?: string
  client_id?: string
  creator_id?: number
  reply_to?: number
  thread_id?: number
}

/** What the filters read of a post, or of a message (message search takes the same filters but the crosspost ones). */
export type Searchable = Pick<PostRow, 'text' | 'entities' | 'annotations' | 'reply_to' | 'thread_id' | 'user_id' | 'app_id'>

export interface CompiledSearchFilters {
  /** How many filters were given. */
  given: number
  match: (item: Searchable) => boolean
  /** Candidate ids from an index, when a filter allows one. */
  source?: (range: Range) => Promise<number[]>
}

type Test = (post: Searchable) => boolean

const domainOf = (url: unknown): string | null => {
  try {
    return typeof url === 'string' ? new URL(url).hostname.toLowerCase().replace(/^www\./, '') : null
  } catch {
    return null
  }
}

const values = (post: Searchable, type: string): Record<string, unknown>[] => post.annotations.filter((a: Annotation) => a.type === type).map((a) => a.value)

const oembed =
  (kind: string): Test =>
  (post) =>
    values(post, 'svc.core.oembed').some((v) => v.type === kind)

const attachmentTypes = (post: Searchable): string[] =>
  values(post, 'svc.core.attachments').flatMap((v) => {
    const list = v['svc.core.file_list'] ?? v['+svc.core.file_list']
    return Array.isArray(list) ? list.map((f: { type?: unknown }) => String(f.type)) : []
  })

const lower = (list: string[] | undefined): string[] | undefined => list?.map((s) => s.replace(/^[#@]/, '').toLowerCase())

/** A boolean filter: `true` asks for posts that have the trait, `false` for posts that lack it. */
const BOOLEAN_TESTS: Record<string, Test> = {
  is_reply: (p) => p.reply_to !== undefined,
  is_directed: isDirectedPost,
  has_location: hasLocation,
  has_checkin: (p) => hasAnnotationType(p, 'svc.core.checkin'),
  is_crosspost: (p) => hasAnnotationType(p, 'svc.core.crosspost'),
  has_attachment: (p) => hasAnnotationType(p, 'svc.core.attachments'),
  has_oembed_photo: oembed('photo'),
  has_oembed_video: oembed('video'),
  has_oembed_html5video: oembed('html5video'),
  has_oembed_rich: oembed('rich'),
}

/** Compiles `f`; unknown usernames and client ids make a filter that matches nothing. */
export async function compileSearchFilters(read: Readers, f: SearchFilters): Promise<CompiledSearchFilters> {
  const tests: Test[] = []
  const hashtags = lower(f.hashtags)
  const mentions = lower(f.mentions)
  const leading = lower(f.leading_mentions)
  const domains = lower(f.link_domains)?.map((d) => d.replace(/^www\./, ''))
  if (hashtags) tests.push((p) => hashtags.every((tag) => p.entities.hashtags.some((h) => h.name.toLowerCase() === tag)))
  if (mentions) tests.push((p) => mentions.every((name) => p.entities.mentions.some((m) => m.name.toLowerCase() === name)))
  if (leading) tests.push((p) => leading.every((name) => p.entities.mentions.some((m) => m.is_leading && m.name.toLowerCase() === name)))
  if (f.links) tests.push((p) => f.links!.every((url) => p.entities.links.some((l) => l.url === url)))
  if (domains) tests.push((p) => domains.every((d) => p.entities.links.some((l) => domainOf(l.url) === d)))
  if (f.annotation_types) tests.push((p) => f.annotation_types!.every((type) => hasAnnotationType(p, type)))
  if (f.attachment_types) tests.push((p) => f.attachment_types!.every((type) => attachmentTypes(p).includes(type)))
  if (f.crosspost_url) tests.push((p) => values(p, 'svc.core.crosspost').some((v) => v.canonical_url === f.crosspost_url))
  if (f.crosspost_domain) {
    const domain = f.crosspost_domain.toLowerCase().replace(/^www\./, '')
    tests.push((p) => values(p, 'svc.core.crosspost').some((v) => domainOf(v.canonical_url) === domain))
  }
  if (f.place_id) tests.push((p) => values(p, 'svc.core.checkin').some((v) => v.factual_id === f.place_id || v.vendor_id === f.place_id))
  if (f.language) tests.push((p) => values(p, 'svc.core.language').some((v) => v.language === f.language))
  for (const [name, test] of Object.entries(BOOLEAN_TESTS)) {
    const want = f[name as keyof SearchFilters]
    if (typeof want === 'boolean') tests.push((p) => test(p) === want)
  }
  if (f.creator_id !== undefined) tests.push((p) => p.user_id === f.creator_id)
  if (f.reply_to !== undefined) tests.push((p) => p.reply_to === f.reply_to)
  if (f.thread_id !== undefined) tests.push((p) => p.thread_id === f.thread_id)
  if (f.client_id !== undefined) {
    const app = await read.apps.one('client_id', f.client_id)
    tests.push((p) => app !== null && p.app_id === app.id)
  }
  const mentioned = mentions ? await read.users.one('username', mentions[0]) : null
  return {
    given: tests.length,
    match: (post) => tests.every((t) => t(post)),
    source: sourceOf(read, f, hashtags, mentions ? (mentioned?.id ?? 0) : undefined),
  }
}

/** An annotation type every match must carry, when the filters imply one. */
function requiredAnnotationType(f: SearchFilters): string | undefined {
  if (f.annotation_types) return f.annotation_types[0]
  if (f.has_location === true) return 'svc.core.geolocation'
  if (f.has_checkin === true || f.place_id !== undefined) return 'svc.core.checkin'
  if (f.is_crosspost === true || f.crosspost_url !== undefined || f.crosspost_domain !== undefined) return 'svc.core.crosspost'
  if (f.has_attachment === true || f.attachment_types !== undefined) return 'svc.core.attachments'
  if ([f.has_oembed_photo, f.has_oembed_video, f.has_oembed_html5video, f.has_oembed_rich].includes(true)) return 'svc.core.oembed'
  if (f.language !== undefined) return 'svc.core.language'
  return undefined
}

function sourceOf(read: Readers, f: SearchFilters, hashtags: string[] | undefined, mentionedId: number | undefined): CompiledSearchFilters['source'] {
  if (f.thread_id !== undefined) return (range) => read.posts.ids('thread', f.thread_id!, range)
  if (f.reply_to !== undefined) return (range) => read.posts.ids('reply_to', f.reply_to!, range)
  if (f.creator_id !== undefined) return (range) => read.posts.ids('user', f.creator_id!, range)
  if (hashtags) return (range) => read.posts.ids('hashtag', hashtags[0], range)
  if (mentionedId !== undefined) return (range) => read.posts.ids('mention', mentionedId, range)
  const type = requiredAnnotationType(f)
  if (type !== undefined) return (range) => read.posts.ids('annotation_type', type, range)
  return undefined
}

/** What post and message search both take: the text to find, the order, the filters. */
export interface SearchTextInput extends SearchFilters {
  query?: string
  text?: string
  order?: string
}

export interface CompiledSearch {
  filters: CompiledSearchFilters
  /** A row's score for the text asked (0: it misses one of the text's parts); 1 when no text was asked. */
  textScore(row: Pick<PostRow, 'text' | 'entities'>): number
}

/** The text parts and filters of a search, checked (a query or a filter is needed; `order=score` needs a query). Errors: `invalid`. */
export async function compileSearch(read: Readers, input: SearchTextInput): Promise<CompiledSearch> {
  const text = [input.query && parseTextQuery(input.query, true), input.text && parseTextQuery(input.text, false)].filter((q): q is TextQuery => !!q)
  const filters = await compileSearchFilters(read, input)
  if (text.length === 0 && filters.given === 0) throw invalid('a search needs a query or at least one filter')
  if (input.order === 'score' && text.length === 0) throw invalid('order=score needs a query')
  const textScore = (row: Pick<PostRow, 'text' | 'entities'>): number => {
    let total = 0
    for (const q of text) {
      const s = scorePost(q, row)
      if (s === 0) return 0
      total += s
    }
    return Math.min(Math.max(total, 1), MAX_SCORE)
  }
  return { filters, textScore }
}
