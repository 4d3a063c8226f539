/**
 * The local load (local-load.ts) in a thread of its own. Beside it, the
 * federation bench's fake remote servers verify and answer svc's deliveries
 * on the bench's main thread: in one event loop the readers waited for
 * their turns, and a busy bench read as a slow server (after a burst the
 * readers' rate fell by half while svc's main thread had time to spare).
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { Latencies } from './latencies.js'
import { localLoad, type LocalLoadOptions, type LocalLoadResult } from './local-load.js'

type Options = Omit<LocalLoadOptions, 'done'>
type Sent = Omit<LocalLoadResult, 'posts' | 'reads'> & { posts: number[]; reads: number[] }

/** How often the window's end is looked for, ms. */
const CHECK_MS = 20

/** `localLoad` in a worker thread; `done` is asked on this thread. */
export async function localLoadApart({ done, ...options }: LocalLoadOptions): Promise<LocalLoadResult> {
  const worker = new Worker(new URL(import.meta.url), { workerData: { localLoad: options } })
  const check = setInterval(() => {
    if (done()) worker.postMessage('stop')
  }, CHECK_MS)
  try {
    const sent = await new Promise<Sent>((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
      worker.once('exit', (code) => reject(new Error(`the local load's thread ended (${code}) before its window`)))
    })
    return { ...sent, posts: Latencies.of(sent.posts), reads: Latencies.of(sent.reads) }
  } finally {
    clearInterval(check)
    await worker.terminate()
  }
}

const asked = (workerData as { localLoad?: Options } | null)?.localLoad
if (!isMainThread && parentPort && asked) {
  const port = parentPort
  let stopped = false
  port.once('message', () => (stopped = true))
  const result = await localLoad({ ...asked, done: () => stopped })
  port.postMessage({ ...result, posts: result.posts.toArray(), reads: result.reads.toArray() } satisfies Sent)
}
