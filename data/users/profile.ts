/**
 * Profile editing (`PUT` / `PATCH /users/me`): name, locale, timezone, the
 * description through the text pipeline, and user annotations, which are
 * unique per type and changed type by type.
 */
import type { AnnotationReplacer } from '../annotations/replacements.js'
import { DomainError, invalid, notFound } from '../errors.js'
import { DESCRIPTION_MAX_LENGTH, NAME_MAX_LENGTH } from '../limits.js'
import type { UserRow } from '../model/user.js'
import type { Store } from '../store/port.js'
import { processText, type EntitiesInput } from '../text/process.js'
import type { Viewer } from '../viewer.js'
import { actingUser } from './acting-user.js'
import { mergeAnnotations } from '../annotations/annotations.js'
import type { UserService } from './users.js'

export interface DescriptionInput {
  text?: string
  /** `links`, `parse_links`, `parse_markdown_links` are read; mentions and hashtags always come from the text. */
  entities?: EntitiesInput
}

export interface ProfileInput {
  name?: string
  locale?: string
  timezone?: string
  description?: DescriptionInput
  /** `{type, value}` sets that type; `{type}` alone removes it; unlisted types stay. */
  annotations?: unknown
}

const LOCALE_SHAPE = /^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8}){0,3}$/
// tzinfo names only: the engine would also take offsets such as `+01:00`.
const TIMEZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/

const checkName = (name: unknown): string => {
  if (typeof name !== 'string') throw invalid('name must be a string')
  if ([...name].length > NAME_MAX_LENGTH) throw invalid(`name is longer than ${NAME_MAX_LENGTH} characters`)
  return name
}

const checkLocale = (locale: unknown): string => {
  let known = false
  if (typeof locale === 'string' && LOCALE_SHAPE.test(locale)) {
    try {
      known = Intl.getCanonicalLocales(locale.replace(/_/g, '-')).length === 1
    } catch {
      known = false
    }
  }
  if (!known) throw invalid('locale must be an ISO locale such as en_US')
  return locale as string
}

/** The tzinfo name, in its canonical case when it was typed in another. */
const checkTimezone = (zone: unknown): string => {
  if (typeof zone === 'string' && TIMEZONE_SHAPE.test(zone)) {
    try {
      const resolved = new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone
      // The engine maps aliases (EST, GMT) to other zones; keep what the user chose.
      return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone
    } catch {
      // unknown zone: refused below
    }
  }
  throw invalid('timezone must be a tzinfo name such as Europe/Berlin')
}

const sameLinks = (given: readonly { pos: number; len: number; url: string }[], stored: UserRow['description']['entities']['links']): boolean =>
  given.length === stored.length && given.every((l, i) => l.pos === stored[i].pos && l.len === stored[i].len && l.url === stored[i].url)

/**
 * A description sent back as it was stored (ADNpy PUTs the whole user it
 * fetched) is kept, so its anti-phishing amendments are not applied twice.
 */
const isUnchanged = (given: DescriptionInput, stored: UserRow['description']): boolean =>
  given.text === stored.text &&
  given.entities?.parse_markdown_links !== true &&
  (given.entities?.links === undefined || (Array.isArray(given.entities.links) && sameLinks(given.entities.links, stored.entities.links)))

export class ProfileService {
  constructor(
    private readonly store: Store,
    private readonly users: UserService,
    /** Resolves replacement values; without it they are refused. */
    private readonly replacer?: AnnotationReplacer,
  ) {}

  /**
   * `PUT /users/me`: like `update`, but `name`, `locale`, `timezone` and
   * `description.text` must all be given. Errors: those of `update`.
   */
  async replace(viewer: Viewer, input: ProfileInput): Promise<UserRow> {
    const missing: string[] = (['name', 'locale', 'timezone'] as const).filter((key) => input[key] === undefined)
    if (input.description?.text === undefined) missing.push('description.text')
    if (missing.length > 0) throw invalid(`a profile replacement needs ${missing.join(', ')}`)
    return this.update(viewer, input)
  }

  /**
   * `PATCH /users/me`: changes the given keys of the viewer's profile and
   * answers the updated user. The description (≤ 256 characters) goes
   * through the text pipeline; its mentions link existing users only.
   * Errors: `invalid` (name over 50 characters, locale, timezone,
   * description, annotations), `forbidden` (no user token), `not_found`
   * (the account is gone). Emits `user.updated`.
   */
  async update(viewer: Viewer, input: ProfileInput): Promise<UserRow> {
    const me = actingUser(viewer)
    const changes: Partial<UserRow> = {}
    if (input.name !== undefined) changes.name = checkName(input.name)
    if (input.locale !== undefined) changes.locale = checkLocale(input.locale)
    if (input.timezone !== undefined) changes.timezone = checkTimezone(input.timezone)
    // Profiles are public: file addresses in their annotations are permanent.
    const given =
      this.replacer && input.annotations !== undefined
        ? await this.replacer.replace(input.annotations, { userId: me.id, publicParent: true })
        : input.annotations
    const user = await this.store.transact(async (tx) => {
      const row = await tx.users.get(me.id)
      if (!row) throw notFound(`user ${me.id} not found`)
      const next: UserRow = { ...row, ...changes }
      if (input.description !== undefined) next.description = await this.description(input.description, row.description)
      if (input.annotations !== undefined) next.annotations = mergeAnnotations(row.annotations, given)
      const user = tx.users.put(next)
      tx.emit('user.updated', { user })
      return user
    })
    return user
  }

  private async description(input: DescriptionInput, stored: UserRow['description']): Promise<UserRow['description']> {
    if (typeof input !== 'object' || input === null) throw invalid('description must be an object with text')
    if (typeof input.text !== 'string') throw invalid('description.text must be a string')
    if (isUnchanged(input, stored)) return stored
    const { links, parse_links, parse_markdown_links } = input.entities ?? {}
    try {
      return await processText(
        input.text,
        { links, parse_links, parse_markdown_links },
        {
          maxLength: DESCRIPTION_MAX_LENGTH,
          findUser: (username) => this.users.byUsername(username),
          findUserById: (id) => this.users.get(id),
          allowEmpty: true,
        },
      )
    } catch (err) {
      if (err instanceof DomainError && err.code === 'invalid') throw invalid(`description ${err.message}`)
      throw err
    }
  }
}
