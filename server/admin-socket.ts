/**
 * The local admin channel of a running server: a Unix socket at
 * `<data dir>/admin.sock`, reachable only by the user running `svc serve`
 * (mode 600), speaking newline-delimited JSON. Each request line
 * `{"id", "op", "args"}` gets one answer line, `{"id", "ok": true, "result"}`
 * or `{"id", "ok": false, "error": {"code", "message"}}`. The CLI and the
 * console send admin operations here so that only the server writes its store.
 */
import { once } from 'node:events'
import { chmod, unlink } from 'node:fs/promises'
import { createConnection, createServer, type Socket } from 'node:net'
import { join } from 'node:path'
import { adminOperations, anonymous, DomainError, invalid, isDomainError, type Domain, type ErrorCode } from '../data/index.js'
import { errorStatus } from './error-status.js'
import { presentAdminResult } from './present/admin.js'

export const adminSocketPath = (dataDir: string): string => join(dataDir, 'admin.sock')

export interface AdminRequest {
  id?: number | string
  op: string
  args?: Record<string, unknown>
}

export type AdminResponse = { id?: number | string; ok: true; result: unknown } | { id?: number | string; ok: false; error: { code: string; message: string } }

/** A request line longer than this is refused; no admin operation needs as much. */
const MAX_LINE = 1 << 20

/**
 * Runs admin operation `name` on `domain`; answers its presented result
 * (`baseUrl` makes the users' image and profile URLs).
 * Errors: `invalid` (unknown operation), then the operation's own.
 */
export async function runAdminOperation(domain: Domain, name: string, args: Record<string, unknown>, baseUrl: string): Promise<unknown> {
  const operation = Object.hasOwn(adminOperations, name) ? adminOperations[name] : undefined
  if (!operation) throw invalid(`unknown admin operation ${name}`)
  const value = await operation(domain, args)
  return presentAdminResult({ views: domain, viewer: anonymous, baseUrl, options: {} }, name, value)
}

const ignoreMissing = (err: NodeJS.ErrnoException) => {
  if (err.code !== 'ENOENT') throw err
}

export interface AdminSocket {
  readonly path: string
  /** Stops accepting, lets running operations finish, then removes the socket file. */
  close(): Promise<void>
}

/** Listens on `<data dir>/admin.sock` for the domain's admin operations. The caller must hold the data dir's lock. */
export async function serveAdminSocket(domain: Domain, options: { baseUrl: string; log: (line: string) => void }): Promise<AdminSocket> {
  const path = adminSocketPath(domain.dataDir)
  // We hold the data dir's lock, so a socket file here is a leftover of a server that died.
  await unlink(path).catch(ignoreMissing)
  const running = new Set<Promise<void>>()
  const sockets = new Set<Socket>()

  const answer = async (line: string): Promise<AdminResponse> => {
    let request: AdminRequest
    try {
      request = JSON.parse(line) as AdminRequest
      if (typeof request !== 'object' || request === null || typeof request.op !== 'string') throw new Error('a request needs an "op"')
    } catch (err) {
      return { ok: false, error: { code: 'invalid', message: `bad admin request: ${(err as Error).message}` } }
    }
    const args = typeof request.args === 'object' && request.args !== null ? request.args : {}
    try {
      return { id: request.id, ok: true, result: await runAdminOperation(domain, request.op, args, options.baseUrl) }
    } catch (err) {
      if (isDomainError(err)) return { id: request.id, ok: false, error: { code: err.code, message: err.message } }
      options.log(`admin operation ${request.op} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
      return { id: request.id, ok: false, error: { code: 'internal', message: err instanceof Error ? err.message : String(err) } }
    }
  }

  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    let buffered = ''
    // Requests of one connection are answered in order, one at a time.
    let queue = Promise.resolve()
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      buffered += chunk
      if (buffered.length > MAX_LINE && !buffered.includes('\n')) {
        socket.end(JSON.stringify({ ok: false, error: { code: 'too_large', message: 'admin request line too long' } }) + '\n')
        return
      }
      let end: number
      while ((end = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, end)
        buffered = buffered.slice(end + 1)
        if (line.trim() === '') continue
        const job = queue.then(async () => {
          const response = await answer(line)
          if (!socket.destroyed) socket.write(JSON.stringify(response) + '\n')
        })
        queue = job
        running.add(job)
        void job.finally(() => running.delete(job))
      }
    })
  })

  // Only the local user may connect: the socket file is born without group or
  // other permissions (the bind happens inside `listen`, synchronously), and
  // the chmod below makes sure of it.
  const umask = process.umask(0o177)
  try {
    server.listen(path)
  } finally {
    process.umask(umask)
  }
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([err]) => Promise.reject(err))])
  await chmod(path, 0o600)

  return {
    path,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      await Promise.allSettled([...running])
      for (const socket of sockets) socket.end()
      await closed
      await unlink(path).catch(ignoreMissing)
    },
  }
}

/** Nobody answers on the socket: no server, or one starting or stopping. */
export class AdminSocketUnreachable extends Error {
  constructor(path: string, cause: unknown) {
    super(`no server answers on ${path}`, { cause })
    this.name = 'AdminSocketUnreachable'
  }
}

const errorOf = (error: { code: string; message: string }): Error =>
  Object.hasOwn(errorStatus, error.code) ? new DomainError(error.code as ErrorCode, error.message) : new Error(error.message)

/**
 * Sends one admin operation to the server listening on `path`; answers its
 * result. Rejects with `AdminSocketUnreachable` when it cannot connect, with
 * a `DomainError` (same code and message) when the operation failed.
 */
export function callAdminSocket(path: string, op: string, args: Record<string, unknown>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let connected = false
    let buffered = ''
    const socket = createConnection(path, () => {
      connected = true
      socket.write(JSON.stringify({ id: 1, op, args } satisfies AdminRequest) + '\n')
    })
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      buffered += chunk
      const end = buffered.indexOf('\n')
      if (end < 0) return
      socket.end()
      try {
        const response = JSON.parse(buffered.slice(0, end)) as AdminResponse
        if (response.ok) resolve(response.result)
        else reject(errorOf(response.error))
      } catch (err) {
        reject(new Error(`bad answer from the admin socket: ${(err as Error).message}`))
      }
    })
    socket.on('error', (err) => reject(connected ? err : new AdminSocketUnreachable(path, err)))
    socket.on('close', () =>
      reject(connected ? new Error('the server closed the admin socket before answering (is it stopping?)') : new AdminSocketUnreachable(path, null)),
    )
  })
}
