/**
 * URI templates in link URLs: `{post_id}` and `{message_id}` become the id of
 * the object being created, known only after processing; hence a second step.
 */
import type { Entities, LinkEntity } from '../model/entities.js'

// Links whose author sent `process_template: false`. Kept beside the entity,
// not on it, so the flag can never leak into stored or presented JSON.
const untemplated = new WeakSet<LinkEntity>()

/** Marks `link` as exempt from template filling. */
export const keepTemplate = (link: LinkEntity): LinkEntity => {
  untemplated.add(link)
  return link
}

const VARIABLE = /\{([A-Za-z0-9_]+)\}/g

/**
 * `entities` with `{name}` in link URLs replaced by `vars[name]`; unknown
 * variables and links sent with `process_template: false` stay untouched.
 */
export function fillTemplates(entities: Entities, vars: Record<string, string>): Entities {
  const fill = (link: LinkEntity): LinkEntity => {
    if (untemplated.has(link)) return link
    const url = link.url.replace(VARIABLE, (whole, name: string) => (Object.hasOwn(vars, name) ? encodeURIComponent(vars[name]) : whole))
    return url === link.url ? link : { ...link, url }
  }
  return { ...entities, links: entities.links.map(fill) }
}
