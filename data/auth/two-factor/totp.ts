/**
 * TOTP (RFC 6238) as authenticator apps speak it, through otplib: 6 digits,
 * 30-second steps, SHA-1, a base32 secret of 20 random bytes. A code is
 * taken one step early or late (a phone's clock drifts, typing takes time),
 * and never for a step at or before the last one accepted, so a code seen
 * over a shoulder or in a log cannot be used again.
 */
import { generateSecret, generateURI, verify } from 'otplib'
import QRCode from 'qrcode'

/** Seconds either side of now a code is still taken: one 30-second step. */
const TOLERANCE_S = 30

/** What an authenticator app needs to be set up: the secret as text, the otpauth:// URI, and that URI as a QR code. */
export interface TotpEnrolment {
  secret: string
  uri: string
  /** An SVG image of the URI's QR code, as a `data:` URL. */
  qr_code: string
}

/** A new secret for `label` (the account) at `issuer` (the instance), with its URI and QR code. */
export async function newEnrolment(issuer: string, label: string): Promise<TotpEnrolment> {
  const secret = generateSecret()
  const uri = generateURI({ issuer, label, secret })
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
  return { secret, uri, qr_code: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` }
}

/** Is `code` shaped as a TOTP code (six digits, spaces allowed as apps show them)? */
export const isTotpShaped = (code: string): boolean => /^\d{6}$/.test(code.replace(/\s/g, ''))

/**
 * The time step `code` belongs to when it is right for `secret` now and
 * newer than `after` (the last step accepted); null otherwise.
 */
export async function acceptedStep(secret: string, code: string, after?: number): Promise<number | null> {
  const token = code.replace(/\s/g, '')
  if (!isTotpShaped(token)) return null
  const result = await verify({ secret, token, epochTolerance: TOLERANCE_S, ...(after === undefined ? {} : { afterTimeStep: after }) })
  return result.valid && 'timeStep' in result ? result.timeStep : null
}
