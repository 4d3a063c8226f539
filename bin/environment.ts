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
  }
}
