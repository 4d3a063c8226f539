/**
 * The server's side of the admin socket (the protocol is data/admin/protocol.ts):
 * it runs the admin operations it is sent on the domain this server holds
 * and answers them presented, and keeps each connection's watches
 * (admin-watch.ts) pushing their pictures.
 */
import { once } from 'node:events'
import { chmod, stat, unlink } from 'node:fs/promises'
import { connect, createServer, type Socket } from 'node:net'
import {
  adminOperations,
  adminSocketPath,
  anonymous,
  invalid,
  isAdminOperation,
  isDomainError,
  MAX_ADMIN_LINE,
  type AdminArgs,
  type AdminOperationName,
  type AdminProgress,
  type AdminProgressLine,
  type AdminRequest,
  type AdminResponse,
  type AdminResults,
  type AdminValue,
  type Domain,
} from '../data/index.js'
import { Watches } from './admin-watch.js'
import { presentAdminResult } from './present/admin.js'

/**
 * Runs admin operation `name` on `domain`; answers its presented result
 * (`baseUrl` makes the users' image and profile URLs). A long operation
 * tells `progress` how far it has got.
 * Errors: `invalid` (unknown operation), then the operation's own.
 */
export async function runAdminOperation(domain: Domain, name: string, args: AdminArgs, baseUrl: string, progress?: AdminProgress): Promise<unknown> {
  if (!isAdminOperation(name)) throw invalid(`unknown admin operation ${name}`)
  return runKnown(domain, name, args, baseUrl, progress)
}

async function runKnown<N extends AdminOperationName>(
  domain: Domain,
  name: N,
  args: AdminArgs,
  baseUrl: string,
  progress?: AdminProgress,
): Promise<AdminResults[N]> {
  // The table's entry for N answers AdminValue<N>; TypeScript cannot follow a generic key into the table.
  const value = (await adminOperations[name](domain, args, progress)) as AdminValue<N>
  return presentAdminResult({ views: domain.views, viewer: anonymous, baseUrl, options: {} }, name, value)
}

/** How often a long operation's progress is told at most. */
const PROGRESS_EVERY_MS = 100

const ignoreMissing = (err: NodeJS.ErrnoException) => {
  if (err.code !== 'ENOENT') throw err
}

export interface AdminSocket {
  readonly path: string
  /** Stops accepting, lets running operations finish, then removes the socket file. */
  close(): Promise<void>
}

/** Whether a server answers on the socket at `path`. */
const answers = (path: string): Promise<boolean> =>
  new Promise((resolve) => {
    const probe = connect(path)
    probe.once('connect', () => (probe.destroy(), resolve(true)))
    probe.once('error', () => resolve(false))
  })

/**
 * Listens on `<data dir>/admin.sock` for the domain's admin operations. A
 * process alone on its store holds the data dir's lock, so a socket file
 * there is a leftover of a server that died. Processes sharing a PostgreSQL
 * store share the data dir too: the first one up takes `admin.sock` (what the
 * console attaches to), each other one `admin-NODE.sock`.
 */
export async function serveAdminSocket(domain: Domain, options: { baseUrl: string; log: (line: string) => void }): Promise<AdminSocket> {
  const shared = adminSocketPath(domain.dataDir)
  const path = domain.node.shared && (await answers(shared)) ? shared.replace(/\.sock$/, `-${domain.node.id}.sock`) : shared
  await unlink(path).catch(ignoreMissing)
  const running = new Set<Promise<void>>()
  const sockets = new Set<Socket>()
  const watching = new Set<Watches>()

  const answer = async (line: string, watches: Watches, tell: (line: AdminProgressLine) => void): Promise<AdminResponse | null> => {
    let request: AdminRequest
    try {
      request = JSON.parse(line) as AdminRequest
      if (typeof request !== 'object' || request === null || typeof request.op !== 'string') throw new Error('a request needs an "op"')
    } catch (err) {
      return { ok: false, error: { code: 'invalid', message: `bad admin request: ${(err as Error).message}` } }
    }
    const args = typeof request.args === 'object' && request.args !== null ? request.args : {}
    try {
      // A watch answers through its own lines (the first one at once), not here.
      if (request.op === 'watch') {
        watches.watch(request.id, args)
        return null
      }
      if (request.op === 'unwatch') return { id: request.id, ok: true, result: watches.unwatch(args.watch) }
      let told = 0
      const progress: AdminProgress = (done, total) => {
        // A line a tenth of a second at most, and the last one always: a bar needs no more.
        if (done < total && Date.now() - told < PROGRESS_EVERY_MS) return
        told = Date.now()
        tell({ id: request.id, progress: { done, total } })
      }
      return { id: request.id, ok: true, result: await runAdminOperation(domain, request.op, args, options.baseUrl, progress) }
    } catch (err) {
      if (isDomainError(err)) return { id: request.id, ok: false, error: { code: err.code, message: err.message } }
      options.log(`admin operation ${request.op} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
      return { id: request.id, ok: false, error: { code: 'internal', message: err instanceof Error ? err.message : String(err) } }
    }
  }

  const server = createServer((socket) => {
    sockets.add(socket)
    const send = (response: AdminResponse | AdminProgressLine) => {
      if (!socket.destroyed && socket.writable) socket.write(JSON.stringify(response) + '\n')
    }
    const watches = new Watches(domain, send, options.log)
    watching.add(watches)
    socket.on('close', () => {
      sockets.delete(socket)
      watches.stopAll()
      watching.delete(watches)
    })
    socket.on('error', () => socket.destroy())
    let buffered = ''
    // Requests of one connection are answered in order, one at a time.
    let queue = Promise.resolve()
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      buffered += chunk
      if (buffered.length > MAX_ADMIN_LINE && !buffered.includes('\n')) {
        socket.end(JSON.stringify({ ok: false, error: { code: 'too_large', message: 'admin request line too long' } }) + '\n')
        return
      }
      let end: number
      while ((end = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, end)
        buffered = buffered.slice(end + 1)
        if (line.trim() === '') continue
        const job = queue.then(async () => {
          const response = await answer(line, watches, send)
          if (response) send(response)
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
  const ours = (await stat(path)).ino

  return {
    path,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      // No picture is read once the server stops: the domain closes after this.
      for (const watches of watching) watches.stopAll()
      await Promise.allSettled([...running])
      for (const socket of sockets) socket.end()
      await closed
      // Another process may have bound the name since (it found nothing answering there): its file stays.
      if ((await stat(path).catch(() => null))?.ino === ours) await unlink(path).catch(ignoreMissing)
    },
  }
}
