/**
 * The text pipeline every post, message and user description goes through:
 * markdown links, user-given links, detected links, mentions of existing
 * users, hashtags, anti-phishing amendments, in code-point positions.
 */
import { invalid } from '../errors.js'
import { MAX_USER_MENTIONS } from '../limits.js'
import type { Entities, HashtagEntity, LinkEntity, MentionEntity } from '../model/entities.js'
import type { UserRow } from '../model/user.js'
import { codePointLength, contains, overlaps, toCodePoint, toUtf16, type Range } from './code-points.js'
import { scanHashtags } from './hashtags.js'
import { isHttpUrl, scanLinks } from './links.js'
import { parseMarkdownLinks } from './markdown.js'
import { scanMentions } from './mentions.js'
import { amendLinks } from './phishing.js'
import { keepTemplate } from './templates.js'

export { fillTemplates } from './templates.js'

export interface EntitiesInput {
  links?: { pos: number; len: number; url: string; process_template?: boolean }[]
  mentions?: ({ name: string } | { id: string | number })[]
  parse_links?: boolean
  parse_markdown_links?: boolean
}

export interface TextOptions {
  /** 256 for posts and descriptions, 2048 for messages. */
  maxLength: number
  /** Mentions are made only of users this finds. */
  findUser: (username: string) => Promise<UserRow | null>
  /** Needed only to resolve user-given mentions sent by `id`. */
  findUserById?: (id: number) => Promise<UserRow | null>
  /** Empty text is fine (machine-only posts and messages). */
  allowEmpty?: boolean
  /** User-given `mentions` are accepted (machine-only posts), at most 10. */
  allowUserMentions?: boolean
}

interface Found<T> extends Range {
  entity: T
}

interface GivenLink extends Range {
  url: string
  keepTemplate: boolean
}

/** The user-given links of `input` as UTF-16 ranges of `text`; throws `invalid` on bad ones. */
function givenLinks(text: string, links: EntitiesInput['links']): GivenLink[] {
  if (links === undefined) return []
  if (!Array.isArray(links)) throw invalid('entities.links must be a list')
  const total = codePointLength(text)
  const ranges = links.map((link): GivenLink => {
    const { pos, len, url } = link ?? ({} as never)
    if (!Number.isInteger(pos) || !Number.isInteger(len) || pos < 0 || len < 1 || pos + len > total) {
      throw invalid('entities.links: pos and len must select text of the post')
    }
    if (typeof url !== 'string' || !isHttpUrl(url)) throw invalid('entities.links: url must be an http or https URL')
    return { start: toUtf16(text, pos), end: toUtf16(text, pos + len), url, keepTemplate: link.process_template === false }
  })
  const sorted = [...ranges].sort((a, b) => a.start - b.start)
  if (sorted.some((r, i) => i > 0 && overlaps(sorted[i - 1], r))) throw invalid('entities.links must not overlap')
  return sorted
}

/**
 * Drops entities covered by a link; a user-given link cutting through a
 * mention or hashtag is an error, since neither could be shown whole.
 */
function besideLinks<T>(found: Found<T>[], given: Range[], detected: Range[]): Found<T>[] {
  return found.filter((item) => {
    const hit = given.find((link) => overlaps(link, item))
    if (hit && !contains(hit, item)) throw invalid('entities.links must not partially overlap a mention or hashtag')
    return !hit && !detected.some((link) => overlaps(link, item))
  })
}

async function mentionsIn(text: string, findUser: TextOptions['findUser']): Promise<Found<MentionEntity>[]> {
  const matches = scanMentions(text)
  const users = new Map<string, UserRow | null>()
  for (const m of matches) {
    const key = m.typed.toLowerCase()
    if (!users.has(key)) users.set(key, await findUser(key))
  }
  return matches.flatMap((m) => {
    const user = users.get(m.typed.toLowerCase())
    return user ? [{ ...m, entity: { pos: 0, len: 0, name: user.username.toLowerCase(), id: String(user.id) } }] : []
  })
}

/** Users named by `entities.mentions`; they address a machine-only post. */
async function givenMentions(input: EntitiesInput['mentions'], options: TextOptions): Promise<UserRow[]> {
  if (input === undefined) return []
  if (!options.allowUserMentions) throw invalid('entities.mentions may only be given on machine-only posts')
  if (!Array.isArray(input)) throw invalid('entities.mentions must be a list')
  if (input.length > MAX_USER_MENTIONS) throw invalid(`entities.mentions may name at most ${MAX_USER_MENTIONS} users`)
  const users: UserRow[] = []
  for (const ref of input) {
    let user: UserRow | null = null
    if (typeof ref !== 'object' || ref === null) throw invalid('entities.mentions: each needs a name or an id')
    if ('name' in ref && typeof ref.name === 'string') user = await options.findUser(ref.name.replace(/^@/, '').toLowerCase())
    else if ('id' in ref && /^\d+$/.test(String(ref.id))) user = options.findUserById ? await options.findUserById(Number(ref.id)) : null
    else throw invalid('entities.mentions: each needs a name or an id')
    if (!user) throw invalid('entities.mentions: no such user')
    users.push(user)
  }
  return users
}

/** Marks the run of mentions that opens the text (separated only by whitespace). */
function markLeading(chars: string[], mentions: MentionEntity[]): MentionEntity[] {
  let at = 0
  let leading = true
  return mentions.map((m) => {
    leading = leading && chars.slice(at, m.pos).every((ch) => /\s/u.test(ch))
    at = m.pos + m.len
    return leading ? { ...m, is_leading: true } : m
  })
}

/**
 * Processes `text` with the optional user-given `entities` into the stored
 * text (with anti-phishing amendments) and its entities, positions in code
 * points, lists sorted by position.
 * Throws DomainError `invalid` on empty or over-long text, bad or
 * overlapping links, and user mentions that are not allowed or unknown.
 */
export async function processText(text: string, entities: EntitiesInput | undefined, options: TextOptions): Promise<{ text: string; entities: Entities }> {
  if (typeof text !== 'string') throw invalid('text must be a string')
  // A lone surrogate has no code point to count or render.
  if (/\p{Cs}/u.test(text)) throw invalid('text is not valid Unicode')
  const input = entities ?? {}
  const markdown = input.parse_markdown_links === true ? parseMarkdownLinks(text) : null
  const body = markdown ? markdown.text : text
  const length = codePointLength(body)
  if (length > options.maxLength) throw invalid(`text is longer than ${options.maxLength} characters`)
  if (!options.allowEmpty && body.trim() === '') throw invalid('text is required')

  const given: GivenLink[] = markdown ? markdown.links.map((l) => ({ ...l, keepTemplate: false })) : givenLinks(body, input.links)
  const autoDetect = input.links === undefined || input.parse_links === true
  const detected = autoDetect ? scanLinks(body).filter((l) => !given.some((g) => overlaps(g, l))) : []
  const mentions = besideLinks(await mentionsIn(body, options.findUser), given, detected)
  const hashtags = besideLinks(
    scanHashtags(body).map((h) => ({ ...h, entity: { pos: 0, len: 0, name: h.name } as HashtagEntity })),
    given,
    detected,
  )
  const extraUsers = await givenMentions(input.mentions, options)

  const place = <T extends { pos: number; len: number }>(f: Found<T>): T => {
    const pos = toCodePoint(body, f.start)
    return { ...f.entity, pos, len: codePointLength(body.slice(f.start, f.end)) }
  }
  const linkEntity = (l: Range & { url: string }): LinkEntity => ({
    pos: toCodePoint(body, l.start),
    len: codePointLength(body.slice(l.start, l.end)),
    text: body.slice(l.start, l.end),
    url: l.url,
  })
  const chars = [...body]
  const parsedMentions = markLeading(chars, mentions.map(place))
  const seen = new Set(parsedMentions.map((m) => m.id))
  const addressed = extraUsers
    .filter((u) => !seen.has(String(u.id)) && seen.add(String(u.id)))
    .map((u): MentionEntity => ({ pos: 0, len: 0, name: u.username.toLowerCase(), id: String(u.id), is_leading: true }))
  const links = [...given, ...detected].sort((a, b) => a.start - b.start)
  const amended = amendLinks(chars, {
    mentions: [...addressed, ...parsedMentions],
    hashtags: hashtags.map(place),
    links: links.map(linkEntity),
  })
  // Mark after amending: amendLinks made new link objects.
  amended.entities.links.forEach((link, i) => {
    if ((links[i] as Partial<GivenLink>).keepTemplate) keepTemplate(link)
  })
  return { text: amended.chars.join(''), entities: amended.entities }
}

/**
 * The rule posts and messages share: a machine-only one carries no text and
 * at least one annotation. Errors: `invalid`.
 */
export function checkMachineOnly(kind: 'post' | 'message', text: string | undefined, annotationCount: number): void {
  if ((text ?? '') !== '') throw invalid(`a machine_only ${kind} has no text`)
  if (annotationCount === 0) throw invalid(`a machine_only ${kind} needs at least one annotation`)
}

/** True when `entities` address someone: a leading mention or a user-given one. */
export const isDirected = (entities: Entities): boolean => entities.mentions.some((m) => m.is_leading === true)
