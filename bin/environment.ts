/**
 * The environment variables svc reads, read here and nowhere else, as the
 * operator contract names them. A flag on the command line wins over its
 * variable; the config file comes after both.
 */
export interface Environment {
  /** `SVC_DATA_DIR`: the data dir when `--data-dir` is not given. */
  dataDir?: string
  /** `PORT`: the port of `svc serve` when `--port` is not given. */
  port?: string
  /** `SVC_STORE_URL`: a `postgres://` URL standing for `--store`. */
  storeUrl?: string
  /** `SVC_BUS_URL`: a `redis://` URL standing for `--bus`. */
  busUrl?: string
  /** `SVC_RATE_LIMIT=off` (or `0`, `false`): rate limiting off, for test and benchmark runs. */
  rateLimitOff: boolean
  /** `SVC_FEDERATION_ALLOW_PRIVATE=1` (or `true`): outgoing federation requests may reach loopback and private addresses. */
  federationAllowPrivate: boolean
  /** `NODE_OPTIONS`: node's own, read to keep an operator's heap settings. */
  nodeOptions?: string
  /**
   * `SVC_TEST_PASSWORD_COST`: scrypt's N for new password hashes, for test
   * suites that start hundreds of sign-ins (production's 2^17 costs half a
   * second each). Never for an instance people use: `svc serve` warns.
   */
  testPasswordCost?: number
  /** `SVC_PLACES_BUNDLED=off` or `on`: stands for the config's `places.bundled`. */
  placesBundled?: boolean
}

const present = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value)

/** Does `SVC_RATE_LIMIT` turn rate limiting off? */
export const rateLimitOffIn = (env: Record<string, string | undefined>): boolean =>
  ['off', '0', 'false'].includes((env.SVC_RATE_LIMIT ?? '').trim().toLowerCase())

/** The variables of `env` (an empty one counts as not set). */
export function environmentOf(env: Record<string, string | undefined>): Environment {
  return {
    dataDir: present(env.SVC_DATA_DIR),
    port: present(env.PORT),
    storeUrl: present(env.SVC_STORE_URL),
    busUrl: present(env.SVC_BUS_URL),
    rateLimitOff: rateLimitOffIn(env),
    federationAllowPrivate: ['1', 'true'].includes((env.SVC_FEDERATION_ALLOW_PRIVATE ?? '').trim().toLowerCase()),
    nodeOptions: present(env.NODE_OPTIONS),
    testPasswordCost: powerOfTwo('SVC_TEST_PASSWORD_COST', present(env.SVC_TEST_PASSWORD_COST)),
    placesBundled: onOff('SVC_PLACES_BUNDLED', present(env.SVC_PLACES_BUNDLED)),
  }
}

function onOff(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined
  const word = value.trim().toLowerCase()
  if (['on', '1', 'true'].includes(word)) return true
  if (['off', '0', 'false'].includes(word)) return false
  throw new Error(`${name} must be on or off, not ${value}`)
}

function powerOfTwo(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n < 2 || (n & (n - 1)) !== 0 || n > 2 ** 20) throw new Error(`${name} must be a power of 2 up to 2^20, not ${value}`)
  return n
}
