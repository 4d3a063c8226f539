/**
 * The client side of the admin socket (see protocol.ts): one connection per
 * operation, one request line, one answer line. The CLI and the console use
 * it to reach the server that holds a data dir.
 */
import { createConnection } from 'node:net'
import { DomainError, isErrorCode } from '../errors.js'
import type { AdminFailure, AdminProgressLine, AdminRequest, AdminResponse } from './protocol.js'

/** Nobody answers on the socket: no server, or one starting or stopping. */
export class AdminSocketUnreachable extends Error {
  constructor(path: string, cause: unknown) {
    super(`no server answers on ${path}`, { cause })
    this.name = 'AdminSocketUnreachable'
  }
}

// A domain error crosses the socket as its code and message and becomes one again here.
const errorOf = (error: AdminFailure): Error => (isErrorCode(error.code) ? new DomainError(error.code, error.message) : new Error(error.message))

/**
 * Sends one admin operation to the server listening on `path`; answers its
 * result. A long operation's progress lines before the answer go to
 * `onProgress`. Rejects with `AdminSocketUnreachable` when it cannot
 * connect, with a `DomainError` (same code and message) when the operation
 * failed.
 */
export function callAdminSocket(path: string, op: string, args: Record<string, unknown>, onProgress?: (done: number, total: number) => void): Promise<unknown> {
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
      let end: number
      while ((end = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, end)
        buffered = buffered.slice(end + 1)
        try {
          const message = JSON.parse(line) as AdminResponse | AdminProgressLine
          if ('progress' in message) {
            onProgress?.(message.progress.done, message.progress.total)
            continue
          }
          socket.end()
          if (message.ok) resolve(message.result)
          else reject(errorOf(message.error))
        } catch (err) {
          socket.end()
          reject(new Error(`bad answer from the admin socket: ${(err as Error).message}`))
        }
        return
      }
    })
    socket.on('error', (err) => reject(connected ? err : new AdminSocketUnreachable(path, err)))
    socket.on('close', () =>
      reject(connected ? new Error('the server closed the admin socket before answering (is it stopping?)') : new AdminSocketUnreachable(path, null)),
    )
  })
}

/** What a watch hears: each picture the server pushes, and each failure (the watch goes on trying). */
export interface AdminWatchListener {
  picture(result: unknown): void
  error(err: Error): void
}

/** How long a watch waits before it connects again after losing the server. */
export const WATCH_RETRY_MS = 1000

/**
 * Watches topic `topic` on the server listening on `path`: one connection
 * that stays open, each pushed picture handed to `listener`. When the
 * connection fails or the server goes away (a restart), it tells the
 * listener and connects again every `retryMs`, watching anew. Answers the
 * function that stops it.
 */
export function watchAdminSocket(path: string, topic: string, listener: AdminWatchListener, retryMs = WATCH_RETRY_MS): () => void {
  let stopped = false
  let socket: ReturnType<typeof createConnection> | null = null
  let retry: NodeJS.Timeout | null = null

  const connect = () => {
    let connected = false
    let buffered = ''
    let failed = false
    const fail = (err: Error) => {
      if (failed || stopped) return
      failed = true
      socket?.destroy()
      listener.error(err)
      retry = setTimeout(connect, retryMs)
    }
    const s = createConnection(path, () => {
      connected = true
      s.write(JSON.stringify({ id: 1, op: 'watch', args: { topic } } satisfies AdminRequest) + '\n')
    })
    socket = s
    s.setEncoding('utf8')
    s.on('data', (chunk: string) => {
      buffered += chunk
      let end: number
      while ((end = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, end)
        buffered = buffered.slice(end + 1)
        if (stopped) return
        try {
          const response = JSON.parse(line) as AdminResponse
          if (response.ok) listener.picture(response.result)
          else listener.error(errorOf(response.error))
        } catch (err) {
          listener.error(new Error(`bad answer from the admin socket: ${(err as Error).message}`))
        }
      }
    })
    s.on('error', (err) => fail(connected ? err : new AdminSocketUnreachable(path, err)))
    s.on('close', () => fail(connected ? new AdminSocketUnreachable(path, 'the server closed the admin socket') : new AdminSocketUnreachable(path, null)))
  }

  connect()
  return () => {
    stopped = true
    if (retry) clearTimeout(retry)
    socket?.destroy()
  }
}
