/**
 * Builds the places index in a worker thread: reading a million places and
 * settling their duplicates takes seconds of CPU, which on the main thread
 * would stall every other request. The main thread only wraps the buffers
 * the worker hands over (no copy, no parse). One worker serves the builds
 * under way together and ends when none is left: its heap (the builder's
 * arrays, the bundled package) would otherwise stay, about the size of the
 * index again.
 */
import { Worker } from 'node:worker_threads'
import type { IndexSources } from './build-index.js'
import { PlaceIndex, type PackedPlaceIndex } from './place-index.js'

export type IndexRequest = IndexSources & { id: number }
export type IndexReply = { id: number; packed: PackedPlaceIndex } | { id: number; error: string }

/** A build under way: its index to come, and a way to give up on it (when the service closes). */
export interface IndexBuild {
  index: Promise<PlaceIndex>
  stop(): void
}

interface Waiter {
  resolve: (index: PlaceIndex) => void
  reject: (err: Error) => void
}

interface SharedWorker {
  worker: Worker
  waiting: Map<number, Waiter>
  /** Ends the worker (when no build is left waiting). */
  retire(): void
}

let shared: SharedWorker | null = null
let nextId = 1

function sharedWorker(): SharedWorker {
  if (shared) return shared
  const worker = new Worker(new URL('./index-worker.js', import.meta.url))
  const waiting = new Map<number, Waiter>()
  let exited: Promise<unknown> = Promise.resolve()
  const retire = (): void => {
    if (shared === current) shared = null
    exited = worker.terminate().catch(() => undefined)
  }
  const current: SharedWorker = { worker, waiting, retire }
  const settle = (id: number): Waiter | undefined => {
    const waiter = waiting.get(id)
    waiting.delete(id)
    if (waiting.size === 0) retire()
    return waiter
  }
  worker.on('message', (reply: IndexReply) => {
    const waiter = settle(reply.id)
    // The index is answered once the worker is gone when it was the last build: its heap is then given back, not held beside the index.
    const ended = shared === current ? Promise.resolve() : exited
    void ended.then(() => {
      if ('error' in reply) waiter?.reject(new Error(`the places index could not be built: ${reply.error}`))
      else waiter?.resolve(new PlaceIndex(reply.packed))
    })
  })
  const fail = (err: Error): void => {
    if (shared === current) shared = null
    for (const id of [...waiting.keys()]) settle(id)?.reject(err)
  }
  worker.on('error', fail)
  worker.on('exit', (code) => fail(new Error(`the places index worker stopped (exit code ${code})`)))
  shared = current
  return current
}

export function buildInWorker(sources: IndexSources): IndexBuild {
  const { worker, waiting, retire } = sharedWorker()
  const id = nextId++
  const index = new Promise<PlaceIndex>((resolve, reject) => waiting.set(id, { resolve, reject }))
  worker.postMessage({ ...sources, id } satisfies IndexRequest)
  return {
    index,
    stop: () => {
      const waiter = waiting.get(id)
      waiting.delete(id)
      if (waiting.size === 0) retire()
      waiter?.reject(new Error('the places service closed'))
    },
  }
}
