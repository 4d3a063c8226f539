/**
 * Secrets: random tokens from a CSPRNG (nanoid), stored only as SHA-256
 * hashes. Passwords are passwords.ts's.
 */
import { hash } from 'node:crypto'
import { customAlphabet } from 'nanoid'

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
