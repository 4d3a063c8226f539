/**
 * How the CLI runs an admin operation: through the server that holds the
 * data dir (its admin socket), or, when none does, on the data dir opened
 * here and closed again. Never two writers on one store. The data dir must
 * exist (`svc init`); an operation that changes it says which one it used.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import {
  AdminSocketUnreachable,
  adminSocketPath,
  callAdminSocket,
  isDomainError,
  lockHolder,
  openDomain,
  type AdminArgs,
  type AdminOperationName,
  type AdminProgress,
  type AdminResults,
} from '../../data/index.js'
import { environmentOf } from '../environment.js'
import type { Io } from '../io.js'
import { domainOptionsOf, existingDataDirOf, reportDataDir } from './data-dir.js'

/**
 * Runs admin operation `name` for the data dir named by `opts`; answers its
 * result in the protocol's shape. A long one tells `progress` how far it got.
 */
export type RunOperation = <N extends AdminOperationName>(
  opts: { dataDir?: string },
  name: N,
  args: AdminArgs,
  progress?: AdminProgress,
) => Promise<AdminResults[N]>

/** How long to wait for a server that holds the data dir to answer (it may be starting up). */
const PATIENCE_MS = 10_000
const RETRY_MS = 100

const HELD = Symbol('held')

/** Operations that only read: the others report the data dir they changed. */
const READS = new Set([
  'app.list',
  'user.list',
  'token.list',
  'explore.list',
  'places.stats',
  'federation.queue',
  'federation.blocks',
  'backup.create',
  'report.list',
])

/** Runs the operation on the data dir itself; answers HELD when a server took the dir first. */
async function runDirectly(io: Io, dir: string, name: string, args: AdminArgs, progress?: AdminProgress): Promise<unknown> {
  let domain
  try {
    domain = await openDomain(dir, domainOptionsOf(io, {}))
  } catch (err) {
    if (isDomainError(err) && err.code === 'conflict') return HELD
    throw err
  }
  try {
    // The data dir as a start leaves it (explore streams seeded, the web client registered), as the server would show it;
    // deliveries owed to other servers wait for the server.
    await domain.start({ federate: false })
    // Loaded only here: an operation a running server takes needs none of the server's modules in this process.
    const { runAdminOperation } = await import('../../server/index.js')
    const baseUrl = domain.config.public_url.replace(/\/$/, '') || `http://localhost:${environmentOf(io.env).port ?? 8080}`
    return await runAdminOperation(domain, name, args, baseUrl, progress)
  } finally {
    await domain.close()
  }
}

/** Runs operations with `io`'s environment, reporting on its stderr. */
export const operationRunner =
  (io: Io): RunOperation =>
  async <N extends AdminOperationName>(opts: { dataDir?: string }, name: N, args: AdminArgs, progress?: AdminProgress) =>
    // Both ways answer what the server's admin presenter made of operation N.
    (await runSomewhere(io, opts, name, args, progress)) as AdminResults[N]

async function runSomewhere(io: Io, opts: { dataDir?: string }, name: string, args: AdminArgs, progress?: AdminProgress): Promise<unknown> {
  const dir = await existingDataDirOf(io, opts)
  const socket = adminSocketPath(dir)
  const deadline = Date.now() + PATIENCE_MS
  const report = (how: string) => {
    if (!READS.has(name)) reportDataDir(io, `data dir ${dir} (${how})`)
  }
  for (;;) {
    const holder = lockHolder(dir)
    if (holder === null) {
      const result = await runDirectly(io, dir, name, args, progress)
      if (result !== HELD) {
        report('opened directly')
        return result
      }
    } else {
      try {
        const result = await callAdminSocket(socket, name, args, progress)
        report(`through the server, process ${holder}`)
        return result
      } catch (err) {
        if (!(err instanceof AdminSocketUnreachable)) throw err
        if (Date.now() > deadline) throw new Error(`process ${holder} holds data dir ${dir} but nothing answers on ${socket}`)
      }
    }
    // A server is starting (lock taken, socket not yet listening) or stopping.
    await sleep(RETRY_MS)
  }
}
