/**
 * The web sign-in state of the OAuth pages: one cookie holding the signed-in
 * user (if any) with the credential generation of the account it signed in
 * under (the domain ends the session once the account's moves on: a
 * password reset, a suspension), a CSRF token the forms echo, and an
 * expiry. hapi's own cookie state seals it with iron (encrypted and
 * authenticated) under the instance's `session_secret`; a cookie that does
 * not unseal is ignored and cleared, so a tampered or foreign one reads as
 * signed out.
 */
import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi'
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { overHttps } from '../request-trust/base-url.js'

export const SESSION_COOKIE = 'svc_session'
const TTL_MS = 30 * 24 * 3600 * 1000

export interface Session {
  /** The signed-in user's id. */
  user_id?: number
  /** The account's credential generation at sign-in (absent: 0). */
  epoch?: number
  /** Half signed in: the right password of a two-factor account was given, its code not yet (ms `expires`, short). */
  pending?: { user_id: number; epoch: number; expires: number }
  /** Echoed by every form as `csrf`. */
  csrf: string
  expires: number
}

// iron refuses passwords under 32 characters. `svc init` makes 43; a shorter one an operator typed is stretched the same way at every start, so cookies outlive restarts.
const ironPassword = (secret: string): string => (secret.length >= 32 ? secret : createHash('sha256').update(secret).digest('hex'))

/** Declares the session cookie on the server: sealed with iron, HttpOnly, SameSite=Lax, Secure when svc is reached over https (`overHttps`). */
export const sessionCookiePlugin: Plugin<{ secret: string }> = {
  name: 'svc-session-cookie',
  register(server, { secret }) {
    server.state(SESSION_COOKIE, {
      encoding: 'iron',
      password: ironPassword(secret),
      path: '/',
      isHttpOnly: true,
      isSameSite: 'Lax',
      isSecure: false,
      ttl: TTL_MS,
      strictHeader: true,
      ignoreErrors: true,
      clearInvalid: true,
      contextualize: (definition, request) => {
        definition.isSecure = overHttps(request)
      },
    })
  },
}

const isSession = (value: unknown): value is Session => {
  const s = value as Partial<Session> | null
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.csrf === 'string' &&
    typeof s.expires === 'number' &&
    (s.user_id === undefined || typeof s.user_id === 'number') &&
    (s.epoch === undefined || typeof s.epoch === 'number') &&
    (s.pending === undefined || isPending(s.pending))
  )
}

const isPending = (p: unknown): boolean => {
  const pending = p as Partial<NonNullable<Session['pending']>> | null
  return typeof pending === 'object' && pending !== null && [pending.user_id, pending.epoch, pending.expires].every((n) => typeof n === 'number')
}

/** The request's valid session, or null (absent, tampered with, expired). */
export function readSession(request: Request): Session | null {
  const session: unknown = request.state?.[SESSION_COOKIE]
  return isSession(session) && session.expires > Date.now() ? session : null
}

/**
 * A fresh session (a new CSRF token each time, so signing in rotates it),
 * signed in as `userId` under `epoch` when given, or half signed in with
 * `pending`.
 */
export const newSession = (signedIn: { userId?: number; epoch?: number; pending?: { userId: number; epoch: number; expires: number } } = {}): Session => ({
  ...(signedIn.userId === undefined ? {} : { user_id: signedIn.userId, epoch: signedIn.epoch ?? 0 }),
  ...(signedIn.pending === undefined
    ? {}
    : { pending: { user_id: signedIn.pending.userId, epoch: signedIn.pending.epoch, expires: signedIn.pending.expires } }),
  csrf: randomBytes(18).toString('base64url'),
  expires: Date.now() + TTL_MS,
})

/** Sets the session cookie on the response being built. */
export function writeSession(h: ResponseToolkit, session: Session): void {
  h.state(SESSION_COOKIE, session)
}

/** Who the request's valid session is signed in as, under which credential generation; undefined when signed out. */
export function sessionClaimOf(request: Request): { userId: number; epoch: number } | undefined {
  const session = readSession(request)
  return session?.user_id === undefined ? undefined : { userId: session.user_id, epoch: session.epoch ?? 0 }
}

/** Ends the session of a request that carries the cookie (valid or not): the response clears it. */
export function endSession(request: Request, h: ResponseToolkit): void {
  if (request.state?.[SESSION_COOKIE] !== undefined) h.unstate(SESSION_COOKIE)
}

/** The session of a page view, starting one when there is none (a sign-in form needs a CSRF token too). */
export function ensureSession(request: Request, h: ResponseToolkit): Session {
  const existing = readSession(request)
  if (existing) return existing
  const session = newSession()
  writeSession(h, session)
  return session
}

const equal = (a: string, b: string): boolean => {
  // Compared as bytes: a posted token of the right length in characters may differ in bytes (é), which timingSafeEqual refuses with a throw.
  const [x, y] = [Buffer.from(a), Buffer.from(b)]
  return x.length === y.length && timingSafeEqual(x, y)
}

/** Does a posted form carry the CSRF token of a valid session? Answers that session. */
export function checkedSession(request: Request, csrf: unknown): Session | null {
  const session = readSession(request)
  return session && typeof csrf === 'string' && equal(csrf, session.csrf) ? session : null
}
