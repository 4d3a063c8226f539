/**
 * One writer per data dir. The lock file holds the owner's pid (and its start
 * time, where /proc tells it); a lock whose process is gone (killed, crashed)
 * or whose pid now belongs to another process is taken over, a live one is
 * refused.
 *
 * The same process may not open a data dir twice either: a pid check cannot
 * tell two stores of one process apart, so held dirs are also remembered here.
 *
 * A killed process stays a zombie until its parent reaps it, and kill(pid, 0)
 * answers for a zombie: its state in /proc tells it is dead.
 *
 * Known limit: node has no flock, so two processes that find the same stale
 * lock at the same instant could both take it over. Each re-reads the lock
 * after writing it and gives up if it lost, which narrows that window to the
 * time between two syscalls.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { DomainError } from '../errors.js'
import { PRIVATE_FILE } from '../disk/file-modes.js'

export const lockPath = (dir: string): string => join(dir, 'svc.lock')

/** Data dirs this process holds, by resolved path. */
const heldHere = new Set<string>()

/**
 * The fields of `/proc/<pid>/stat` after the command name (which is in
 * parentheses and may hold spaces or parentheses itself, hence the last `)`):
 * [0] is the state, [19] the start time. `null` where /proc is not there.
 */
const statOf = (pid: number): string[] | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return null
  }
}

/**
 * When the process `pid` started (clock ticks since boot), so a pid reused
 * by an unrelated process after a crash is not taken for the owner. `null`
 * where /proc is not there (the pid check alone then).
 */
const startOf = (pid: number): string | null => statOf(pid)?.[19] ?? null

const alive = (pid: number, start: string | null): boolean => {
  try {
    process.kill(pid, 0)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  const stat = statOf(pid)
  // A killed process whose parent has not reaped it yet is a zombie (Z, or X
  // while being reaped): kill(pid, 0) still answers for it, but it holds
  // nothing and will never write again.
  if (stat !== null && (stat[0] === 'Z' || stat[0] === 'X')) return false
  return start === null || stat === null || stat[19] === start
}

/** The lock file's content: `<pid>` and, where known, ` <start time>`. */
const readLock = (path: string): { pid: number; start: string | null } | null => {
  try {
    const [pid, start] = readFileSync(path, 'utf8').trim().split(/\s+/)
    const n = Number(pid)
    return Number.isInteger(n) && n > 0 ? { pid: n, start: start ?? null } : null
  } catch {
    return null
  }
}

const readPid = (path: string): number | null => readLock(path)?.pid ?? null

/** The pid of another live process holding `dir`, if any. */
export function lockHolder(dir: string): number | null {
  const lock = readLock(lockPath(dir))
  return lock !== null && lock.pid !== process.pid && alive(lock.pid, lock.start) ? lock.pid : null
}

const inUse = (dir: string, pid: number): DomainError => new DomainError('conflict', `data dir ${dir} is in use by process ${pid} (stop it first)`)

/** Takes the lock of `dir`; answers a release function. Throws `conflict` when another live process (or this one) holds it. */
export function acquireLock(dir: string): () => void {
  const key = resolve(dir)
  if (heldHere.has(key)) throw new DomainError('conflict', `data dir ${dir} is already open in this process`)
  const path = lockPath(dir)
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', PRIVATE_FILE)
      try {
        const start = startOf(process.pid)
        writeSync(fd, start === null ? String(process.pid) : `${process.pid} ${start}`)
      } finally {
        closeSync(fd)
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const stale = readPid(path)
      const holder = lockHolder(dir)
      if (holder !== null) throw inUse(dir, holder)
      // A lock left by a process that died (or by an earlier run of ours that
      // got our pid again): take it over, unless it changed since we read it.
      if (readPid(path) === stale) {
        try {
          unlinkSync(path)
        } catch {
          // someone else removed it first
        }
      }
      continue
    }
    if (readPid(path) !== process.pid) {
      const holder = lockHolder(dir)
      if (holder !== null) throw inUse(dir, holder)
      continue
    }
    heldHere.add(key)
    return () => {
      heldHere.delete(key)
      try {
        if (readPid(path) === process.pid) unlinkSync(path)
      } catch {
        // already gone
      }
    }
  }
  throw new DomainError('conflict', `could not lock data dir ${dir}`)
}
