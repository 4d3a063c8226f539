/**
 * Modes of what svc creates in a data dir: the owner only, as PostgreSQL
 * does, since the dir holds password hashes, token hashes, the session
 * secret and private messages. Given explicitly at each creation, so they
 * hold whatever the process umask (tests open the domain without the CLI).
 */
export const PRIVATE_DIR = 0o700
export const PRIVATE_FILE = 0o600
