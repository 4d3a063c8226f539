/**
 * Secrets: random tokens from a CSPRNG (nanoid), stored only as SHA-256
 * hashes; passwords hashed with scrypt and a per-password salt.
 */
import { hash, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { customAlphabet } from 'nanoid'

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) => scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))))

/**
 * Letters and digits only: a secret is pasted into shells and command lines
 * (`svc app delete CLIENT_ID`), where one starting with `-` reads as an
 * option, and double-clicked, which stops at `-`.
 */
const secretOf = customAlphabet('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')

/** A new random secret of `size` letters and digits (about 5.95 bits each). */
export const newSecret = (size = 43): string => secretOf(size)

/** The stored form of a token or secret. */
export const hashSecret = (secret: string): string => hash('sha256', secret, 'hex')

const N = 16384
const r = 8
const p = 1
const KEYLEN = 32

/** `scrypt$N$r$p$salt$hash`, all in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await scrypt(password, salt, KEYLEN, { N, r, p })
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  if (!stored) return false
  const [kind, n, rr, pp, salt, hash] = stored.split('$')
  if (kind !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(rr), p: Number(pp) })
  return timingSafeEqual(key, expected)
}
