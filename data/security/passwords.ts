/**
 * Passwords, hashed with scrypt and a per-password salt, stored as
 * `scrypt$N$r$p$salt$hash` (salt and hash in base64url). New hashes take the
 * hasher's cost; a stored hash of a lower cost still verifies and is reported
 * stale, so the sign-in that proved the password can store a new one.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import pLimit from 'p-limit'

/** scrypt's parameters: N (CPU and memory cost, a power of 2), r (block size), p (parallelism). */
export interface ScryptCost {
  N: number
  r: number
  p: number
}

/** OWASP's Password Storage Cheat Sheet minimum for scrypt: about 128 MiB and half a second per hash. */
export const PASSWORD_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 }

/** Stored hashes above this cost are not ours: checking one would take too long or too much memory. */
const MAX_N = 2 ** 20
const KEYLEN = 32

/**
 * Hashes run in libuv's thread pool (4 threads), which the store's file
 * reads and writes share: two at a time leave it room, however many
 * sign-ins arrive at once, and bound the memory they take (128 MiB each).
 */
const hashing = pLimit(2)

const scrypt = (password: string, salt: Buffer, keylen: number, cost: ScryptCost): Promise<Buffer> => {
  // node refuses more than 32 MiB by default; scrypt needs 128·N·r bytes, and this leaves room for its small buffers.
  const options: ScryptOptions = { ...cost, maxmem: 128 * cost.N * cost.r + 16 * 1024 * 1024 }
  return hashing(() => new Promise((resolve, reject) => scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)))))
}

/** Parameters scrypt takes, within what a sign-in may spend. */
const sane = ({ N, r, p }: ScryptCost): boolean =>
  Number.isInteger(N) && N > 1 && N <= MAX_N && (N & (N - 1)) === 0 && Number.isInteger(r) && r >= 1 && r <= 32 && Number.isInteger(p) && p >= 1 && p <= 16

const parse = (stored: string | undefined): { cost: ScryptCost; salt: Buffer; hash: Buffer } | null => {
  const [kind, n, r, p, salt, hash, ...rest] = (stored ?? '').split('$')
  const cost = { N: Number(n), r: Number(r), p: Number(p) }
  if (kind !== 'scrypt' || !sane(cost) || !salt || !hash || rest.length > 0) return null
  return { cost, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') }
}

/** What checking a password found: whether it matched, and whether its stored hash is below the current cost. */
export interface PasswordCheck {
  ok: boolean
  stale: boolean
}

export class PasswordHasher {
  /** Hashed when there is no stored hash to check, so that path costs what a real check costs. */
  private readonly dummySalt = randomBytes(16)

  /** `cost`: what new hashes get; lowered only by tests, which make hundreds of accounts. */
  constructor(readonly cost: ScryptCost = PASSWORD_COST) {
    if (!sane(cost)) throw new RangeError(`scrypt cost N=${cost.N} r=${cost.r} p=${cost.p}: N must be a power of 2 from 2 to 2^20`)
  }

  /** The stored form of `password`, at the hasher's cost. */
  async hash(password: string): Promise<string> {
    const salt = randomBytes(16)
    const key = await scrypt(password, salt, KEYLEN, this.cost)
    const { N, r, p } = this.cost
    return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$')
  }

  /**
   * Checks `password` against `stored`. Without a usable stored hash (an
   * unknown username, an account that cannot sign in) a hash of the same
   * cost is computed anyway and the answer is no: how long the check takes
   * does not tell whether the account exists.
   */
  async verify(password: string, stored: string | undefined): Promise<PasswordCheck> {
    const parsed = parse(stored)
    if (!parsed || parsed.hash.length === 0) {
      await scrypt(password, this.dummySalt, KEYLEN, this.cost)
      return { ok: false, stale: false }
    }
    const key = await scrypt(password, parsed.salt, parsed.hash.length, parsed.cost)
    const stale = parsed.cost.N < this.cost.N || parsed.cost.r < this.cost.r || parsed.cost.p < this.cost.p
    return { ok: timingSafeEqual(key, parsed.hash), stale }
  }
}
