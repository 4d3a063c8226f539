/**
 * Anti-phishing: a link whose anchor text is not its destination's domain
 * gets ` [domain]` written right after the anchor, so readers always see
 * where it goes. The added characters are reported as `amended_len`.
 */
import { domainToUnicode } from 'node:url'
import type { Entities, LinkEntity } from '../model/entities.js'

/** The host a reader should be shown for `url` (Unicode, lower-case). */
export const displayHost = (url: string): string => domainToUnicode(new URL(url).hostname).toLowerCase()

// The anchor names the destination when, read as an address, it has the same host.
const anchorHost = (anchor: string): string =>
  anchor
    .trim()
    .replace(/^https?:\/\//i, '')
    .split(/[/?#:\s]/)[0]
    .replace(/\.$/, '')
    .toLowerCase()

/** The suffix to append after `link`'s anchor, or '' when the anchor is the destination's domain. */
export const phishingSuffix = (link: LinkEntity): string => {
  const host = displayHost(link.url)
  return anchorHost(link.text) === host ? '' : ` [${host}]`
}

/**
 * `text` (as code points) and `entities` with every needed suffix inserted;
 * positions of later entities shift by the inserted length.
 */
export function amendLinks(chars: string[], entities: Entities): { chars: string[]; entities: Entities } {
  const inserts = entities.links.map((link) => ({ at: link.pos + link.len, suffix: [...phishingSuffix(link)] })).filter((i) => i.suffix.length > 0)
  if (inserts.length === 0) return { chars, entities }
  const shift = (pos: number): number => pos + inserts.filter((i) => i.at <= pos).reduce((n, i) => n + i.suffix.length, 0)
  const out = [...chars]
  for (const ins of [...inserts].sort((a, b) => b.at - a.at)) out.splice(ins.at, 0, ...ins.suffix)
  const amendedLen = (link: LinkEntity): number | undefined => inserts.find((i) => i.at === link.pos + link.len)?.suffix.length
  return {
    chars: out,
    entities: {
      mentions: entities.mentions.map((m) => ({ ...m, pos: shift(m.pos) })),
      hashtags: entities.hashtags.map((h) => ({ ...h, pos: shift(h.pos) })),
      links: entities.links.map((l) => {
        const extra = amendedLen(l)
        return extra === undefined ? { ...l, pos: shift(l.pos) } : { ...l, pos: shift(l.pos), amended_len: l.len + extra }
      }),
    },
  }
}
