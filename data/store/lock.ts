/**
 * One writer per data dir. The lock file holds the owner's pid; a lock whose
 * process is gone (killed, crashed) is taken over, a live one is refused.
 */
import { openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs'
import { join } from 'node:path'
import { DomainError } from '../errors.js'

export const lockPath = (dir: string): string => join(dir, 'svc.lock')

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The pid holding `dir`, if that process is alive. */
export function lockHolder(dir: string): number | null {
  try {
    const pid = Number(readFileSync(lockPath(dir), 'utf8').trim())
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : null
  } catch {
    return null
  }
}

/** Takes the lock of `dir`; answers a release function. Throws `conflict` when another live process holds it. */
export function acquireLock(dir: string): () => void {
  const path = lockPath(dir)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return () => {
        try {
          if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path)
        } catch {
          // already gone
        }
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const holder = lockHolder(dir)
      if (holder !== null) {
        throw new DomainError('conflict', `data dir ${dir} is in use by process ${holder} (stop it first)`)
      }
      // A stale lock from a process that died: take it over.
      try {
        unlinkSync(path)
      } catch {
        // someone else removed it first
      }
    }
  }
  throw new DomainError('conflict', `could not lock data dir ${dir}`)
}
