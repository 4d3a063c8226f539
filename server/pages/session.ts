/**
 * The web sign-in state of the OAuth pages: one cookie holding the signed-in
 * user (if any), a CSRF token the forms echo, and an expiry, signed with
 * HMAC-SHA256 under the instance's `session_secret`. It is only ever read by
 * this server, so it needs integrity, not secrecy.
 */
import type { Request, ResponseToolkit } from '@hapi/hapi'
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

export const SESSION_COOKIE = 'svc_session'
const TTL_MS = 30 * 24 * 3600 * 1000

export interface Session {
  /** The signed-in user's id. */
  user_id?: number
  /** Echoed by every form as `csrf`. */
  csrf: string
  expires: number
}

const sign = (secret: string, payload: string): string => createHmac('sha256', secret).update(payload).digest('base64url')

const equal = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/** The request's valid session, or null (absent, tampered with, expired). */
export function readSession(request: Request, secret: string): Session | null {
  const raw = request.state?.[SESSION_COOKIE]
  if (typeof raw !== 'string') return null
  const [payload, mac] = raw.split('.')
  if (!payload || !mac || !equal(mac, sign(secret, payload))) return null
  try {
    const session = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Session
    return typeof session.csrf === 'string' && session.expires > Date.now() ? session : null
  } catch {
    return null
  }
}

/** A fresh session (a new CSRF token each time, so signing in rotates it). */
export const newSession = (user_id?: number): Session => ({
  ...(user_id === undefined ? {} : { user_id }),
  csrf: randomBytes(18).toString('base64url'),
  expires: Date.now() + TTL_MS,
})

/** Sets the session cookie on the response being built. */
export function writeSession(request: Request, h: ResponseToolkit, secret: string, session: Session): void {
  const payload = Buffer.from(JSON.stringify(session)).toString('base64url')
  const secure = request.server.info.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https'
  h.state(SESSION_COOKIE, `${payload}.${sign(secret, payload)}`, {
    encoding: 'none',
    path: '/',
    isHttpOnly: true,
    isSameSite: 'Lax',
    isSecure: secure,
    ttl: TTL_MS,
    strictHeader: true,
  })
}

/** The session of a page view, starting one when there is none (a sign-in form needs a CSRF token too). */
export function ensureSession(request: Request, h: ResponseToolkit, secret: string): Session {
  const existing = readSession(request, secret)
  if (existing) return existing
  const session = newSession()
  writeSession(request, h, secret, session)
  return session
}

/** Does a posted form carry the CSRF token of a valid session? Answers that session. */
export function checkedSession(request: Request, secret: string, csrf: unknown): Session | null {
  const session = readSession(request, secret)
  return session && typeof csrf === 'string' && equal(csrf, session.csrf) ? session : null
}
