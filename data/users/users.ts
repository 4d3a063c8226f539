/**
 * Accounts: creation with username rules and a hashed password, lookup by id,
 * `me` or `@username`, password checks, and whether a sign-in session still
 * holds.
 */
import { DomainError, invalid, notFound } from '../errors.js'
import type { UserRow, UserType } from '../model/user.js'
import type { PasswordHasher } from '../security/passwords.js'
import type { Store } from '../store/port.js'
import { NAME_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH } from '../limits.js'
import { isoNow } from '../time.js'
import type { Viewer } from '../viewer.js'
import { isModerated } from './moderated-users.js'
import { checkEmailAddress, emailKey } from './email-rule.js'

export const USERNAME_PATTERN = new RegExp(`^[a-z0-9_]{1,${USERNAME_MAX_LENGTH}}$`)

/**
 * A remote account's handle as typed: `@name@authority` (the `@` first is
 * optional), authority a host name or address with an optional port.
 */
export const REMOTE_HANDLE_PATTERN = /^@?([\w.-]{1,64})@((?:[a-z0-9-]{1,63}\.)*[a-z0-9-]{1,63}(?::\d{1,5})?)$/i

/** Finds a remote account by handle (`name@authority`), reading it from its server the first time; null when none answers. */
export type RemoteUserLookup = (handle: string) => Promise<UserRow | null>

/** The password rule of every account. Errors: `invalid`. */
export function checkPasswordRule(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw invalid(`password must be at least ${PASSWORD_MIN_LENGTH} characters`)
}

/** The refusal of an address another account has. */
export const emailTaken = (): DomainError => new DomainError('conflict', 'that e-mail address belongs to another account')

/** The lookup key of a username as typed: case-insensitive, with or without its `@`. */
export const usernameKey = (username: string): string => username.replace(/^@/, '').toLowerCase()

/** What a sign-in session holds: who signed in, under which credential generation of the account. */
export interface SessionClaim {
  userId: number
  epoch: number
}

/** The credential generation a session that begins now carries (see `UserRow.session_epoch`). */
export const sessionEpochOf = (user: UserRow): number => user.session_epoch ?? 0

export interface CreateUserInput {
  username: string
  password?: string
  name?: string
  type?: UserType
  locale?: string
  timezone?: string
  /** The account waits for the operator's approval (see `UserRow.waiting_approval`), with what it told them. */
  waiting?: { note?: string }
  /** The owner's e-mail address, unconfirmed until its mailed link is followed. */
  email?: string
}

export class UserService {
  /** Set by federation when the instance federates. */
  private remoteLookup: RemoteUserLookup | null = null

  constructor(
    private readonly store: Store,
    private readonly passwords: PasswordHasher,
  ) {}

  /**
   * Creates an account. Usernames are case-insensitive and kept lower-cased,
   * as are e-mail addresses when compared.
   * Errors: `invalid` (username, password or address rules), `conflict`
   * (username or address taken).
   * Emits `user.created`.
   */
  async create(input: CreateUserInput): Promise<UserRow> {
    const username = input.username.trim().toLowerCase()
    if (!USERNAME_PATTERN.test(username)) {
      throw invalid(`username must be 1 to ${USERNAME_MAX_LENGTH} characters of a-z, 0-9 and _`)
    }
    if (input.password !== undefined) checkPasswordRule(input.password)
    const name = input.name ?? username
    if ([...name].length > NAME_MAX_LENGTH) throw invalid(`name is longer than ${NAME_MAX_LENGTH} characters`)
    const email = input.email === undefined ? undefined : checkEmailAddress(input.email)
    const password_hash = input.password === undefined ? undefined : await this.passwords.hash(input.password)
    const user = await this.store.transact(async (tx) => {
      if (await tx.users.one('username', username)) throw new DomainError('conflict', `username ${username} is taken`)
      if (email && (await tx.users.one('email', emailKey(email)))) throw emailTaken()
      const user = tx.users.insert({
        username,
        username_key: username,
        name,
        ...(password_hash ? { password_hash } : {}),
        ...(email ? { email: { address: email } } : {}),
        type: input.type ?? 'human',
        locale: input.locale ?? 'en_US',
        timezone: input.timezone ?? 'UTC',
        description: { text: '', entities: { mentions: [], hashtags: [], links: [] } },
        annotations: [],
        created_at: isoNow(),
        ...(input.waiting ? { waiting_approval: { since: isoNow(), ...(input.waiting.note ? { note: input.waiting.note } : {}) } } : {}),
      })
      tx.emit('user.created', { user })
      return user
    })
    return user
  }

  /** Lets `find` and `resolve` reach remote accounts by handle through `lookup`. */
  setRemoteLookup(lookup: RemoteUserLookup): void {
    this.remoteLookup = lookup
  }

  get(id: number): Promise<UserRow | null> {
    return this.store.read.users.get(id)
  }

  /** The users of `ids` in that order, leaving out ids of no user and suspended or deleted accounts (`GET /users?ids=`). */
  async getMany(ids: readonly number[]): Promise<UserRow[]> {
    return (await this.store.read.users.getMany(ids)).filter((u) => !isModerated(u))
  }

  /** Every account, suspended and waiting ones included, oldest first (the admin's list); deleted ones are gone. */
  async list(): Promise<UserRow[]> {
    const ids = await this.store.read.users.scan({ limit: Number.MAX_SAFE_INTEGER, order: 'asc' }, (u) => u.deleted_at === undefined)
    return this.store.read.users.getMany(ids)
  }

  /** A remote account by its handle (`name@authority`), read from its server the first time; null when it cannot be had or is moderated. */
  async findByHandle(handle: string): Promise<UserRow | null> {
    const bare = handle.replace(/^@/, '')
    let user = await this.byUsername(bare)
    if (!user && this.remoteLookup && REMOTE_HANDLE_PATTERN.test(bare)) user = await this.remoteLookup(bare)
    return user && !isModerated(user) ? user : null
  }

  byUsername(username: string): Promise<UserRow | null> {
    return this.store.read.users.one('username', usernameKey(username))
  }

  /**
   * Resolves a user reference from a path or list: a numeric id, `@username`,
   * `@name@authority` (a remote account, read from its server the first
   * time when the instance federates) or `me` (the viewer's own user; needs
   * a user token). Suspended and deleted accounts are not found.
   * Errors: `not_found`, `invalid` (`me` without a user token or a malformed reference).
   */
  async resolve(ref: string | number, viewer: Viewer): Promise<UserRow> {
    const found = await this.find(ref, viewer)
    if (!found) {
      const remote = REMOTE_HANDLE_PATTERN.test(String(ref).trim())
      throw notFound(remote && this.remoteLookup ? `user ${ref} not found: its server does not know it or could not be reached` : `user ${ref} not found`)
    }
    return found
  }

  /** Like `resolve`, answering `null` for unknown users. */
  async find(ref: string | number, viewer: Viewer): Promise<UserRow | null> {
    const text = String(ref).trim()
    if (text === 'me') {
      if (!viewer.user) throw invalid('"me" needs a user token')
      return viewer.user
    }
    if (!text.startsWith('@') && !/^\d{1,15}$/.test(text)) throw invalid(`${text} is not a user id, "me" or @username`)
    let user = text.startsWith('@') ? await this.byUsername(text) : await this.get(Number(text))
    if (!user && this.remoteLookup && REMOTE_HANDLE_PATTERN.test(text)) user = await this.remoteLookup(text.replace(/^@/, ''))
    return user && !isModerated(user) ? user : null
  }

  /**
   * Checks a username/password pair; answers the user, or null. Every answer
   * costs one password hash, whether the account exists, has a password or
   * not. A right password stored below the current hashing cost is hashed
   * again and stored (the row answered carries the new hash).
   */
  async checkPassword(username: string, password: string): Promise<UserRow | null> {
    const user = await this.byUsername(username)
    const { ok, stale } = await this.passwords.verify(password, user?.password_hash)
    if (!user || !ok || user.remote) return null
    return stale ? this.rehash(user, password) : user
  }

  /**
   * The account a sign-in session still speaks for: null when it is gone or
   * suspended, or when its password was reset or it was suspended since the
   * session began (another credential generation).
   */
  async sessionUser(claim: SessionClaim): Promise<UserRow | null> {
    const user = await this.get(claim.userId)
    return user && !isModerated(user) && sessionEpochOf(user) === claim.epoch ? user : null
  }

  /** Stores a new hash of `password`, unless the password was reset meanwhile: then the one proved is no longer the account's (null). */
  private async rehash(user: UserRow, password: string): Promise<UserRow | null> {
    const password_hash = await this.passwords.hash(password)
    return this.store.transact(async (tx) => {
      const current = await tx.users.get(user.id)
      if (!current || current.password_hash !== user.password_hash) return null
      return tx.users.put({ ...current, password_hash })
    })
  }
}
