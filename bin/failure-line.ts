/**
 * The one line an operator reads when a command fails: what happened and
 * what to do. Domain errors already say so; system errors (a port in use, a
 * read-only disk) are translated here instead of reaching the operator raw.
 */
import { isDomainError } from '../data/index.js'

interface SystemError extends Error {
  code: string
  syscall?: string
  path?: string
  address?: string
  port?: number
}

const isSystemError = (err: unknown): err is SystemError => err instanceof Error && typeof (err as SystemError).code === 'string' && 'syscall' in err

const explain = (err: SystemError): string | null => {
  const where = err.path ?? 'a file of the data dir'
  const listening = err.syscall === 'listen' || err.syscall === 'bind'
  switch (err.code) {
    case 'EADDRINUSE':
      return `port ${err.port} on ${err.address} is already in use (another svc or another program listens there): stop it, or choose another port with --port`
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${err.address}: it is not an address of this machine; choose another with --host`
    case 'EACCES':
    case 'EPERM':
      return listening
        ? `not allowed to listen on port ${err.port} (ports below 1024 need privileges): choose another port with --port`
        : `permission denied on ${where}: run svc as the user that owns the data dir, or fix its owner and mode`
    case 'ENOTDIR':
      return `${where}: part of this path is a file, not a directory; check --data-dir`
    case 'ENOSPC':
      return `no space left on the device of ${where}: free some space, then run the command again`
    case 'EROFS':
      return `${where} is on a read-only file system: choose a writable --data-dir`
    case 'EMFILE':
    case 'ENFILE':
      return 'too many open files: raise the limit (ulimit -n), then run the command again'
    default:
      return null
  }
}

/** The reason `err` stopped the command, in one line (without the `svc: ` prefix). */
export function failureLine(err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err)
  const line = !isDomainError(err) && isSystemError(err) ? (explain(err) ?? raw) : raw
  return line.split('\n')[0]
}
