/**
 * What an instance's own users do, as a steady background for measuring
 * something else beside it: posts at a fixed rate (open loop: the next POST
 * leaves on schedule whether the last was answered or not, so a slow server
 * shows as latency, not as fewer posts) and readers of their unified stream
 * in a closed loop at a fixed concurrency (a slow server shows as fewer
 * reads). Runs until `done()` says so.
 */
import http from 'node:http'
import { keepBusy, Latencies } from './latencies.js'
import { send, type LoadRequest } from './load.js'

export interface LocalLoadOptions {
  port: number
  /** The local users' tokens: posts and reads go round them. */
  tokens: string[]
  postsPerSecond: number
  readers: number
  /** Checked between requests: true ends the window. */
  done: () => boolean
}

export interface LocalLoadResult {
  seconds: number
  posts: Latencies
  postErrors: number
  reads: Latencies
  readErrors: number
  /** Reads answered per second over the readers' own window. */
  readsPerSecond: number
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/** Runs the posts and the reads side by side until `done()`; the window ends when the last POST sent is answered. */
export async function localLoad(o: LocalLoadOptions): Promise<LocalLoadResult> {
  const agent = new http.Agent({ keepAlive: true })
  const posts = new Latencies()
  let postErrors = 0
  const post = async (n: number): Promise<void> => {
    const request: LoadRequest = {
      method: 'POST',
      path: '/stream/0/posts',
      headers: { ...bearer(o.tokens[n % o.tokens.length]), 'content-type': 'application/json' },
      body: JSON.stringify({ text: `local post ${n} about the morning train and #coffee` }),
    }
    const sent = performance.now()
    try {
      await send(agent, o.port, request)
      posts.add(performance.now() - sent)
    } catch {
      postErrors++
    }
  }
  const poster = async (): Promise<void> => {
    const period = 1000 / o.postsPerSecond
    const began = performance.now()
    const sent: Promise<void>[] = []
    for (let n = 0; !o.done(); n++) {
      // On the schedule from the start, so a late timer is caught up rather than spreading the posts out.
      const wait = began + n * period - performance.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      if (o.done()) break
      sent.push(post(n))
    }
    await Promise.all(sent)
  }
  let r = 0
  const read = () => send(agent, o.port, { method: 'GET', path: '/stream/0/posts/stream/unified', headers: bearer(o.tokens[r++ % o.tokens.length]) })
  const started = performance.now()
  try {
    const [, reading] = await Promise.all([poster(), keepBusy(o.readers, o.done, read)])
    return {
      seconds: (performance.now() - started) / 1000,
      posts,
      postErrors,
      reads: reading.latencies,
      readErrors: reading.errors,
      readsPerSecond: (reading.latencies.count / reading.elapsedMs) * 1000,
    }
  } finally {
    agent.destroy()
  }
}
