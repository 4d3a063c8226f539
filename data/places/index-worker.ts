/**
 * The worker that builds places indexes (started by index-in-worker.ts): for
 * each request it reads the sources named, and posts the packed index back
 * with its buffers transferred, or `{ error }`.
 */
import { parentPort } from 'node:worker_threads'
import { buildPackedIndex } from './build-index.js'
import type { IndexReply, IndexRequest } from './index-in-worker.js'
import { transferListOf } from './place-index.js'

parentPort?.on('message', ({ id, ...sources }: IndexRequest) => {
  buildPackedIndex(sources).then(
    (packed) => parentPort?.postMessage({ id, packed } satisfies IndexReply, transferListOf(packed)),
    (err: unknown) => parentPort?.postMessage({ id, error: err instanceof Error ? err.message : String(err) } satisfies IndexReply),
  )
})
