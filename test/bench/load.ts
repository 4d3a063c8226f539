/**
 * A closed-loop HTTP load generator: `connections` keep-alive sockets, each
 * sending its next request as soon as the previous answer is read. Each
 * request is built by a function (paths, tokens and bodies may differ from
 * one request to the next, GET or POST); a warm-up runs before the measured
 * window.
 */
import http from 'node:http'
import { keepBusy } from './latencies.js'

export interface LoadRequest {
  method: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: string
}

export interface LoadResult {
  requests: number
  /** Answers other than 2xx, and transport errors. */
  errors: number
  rps: number
  p50Ms: number
  p99Ms: number
  /** Size of the last body read, in bytes. */
  bodyBytes: number
}

/** Sends `req` on `agent`; resolves with the answer's body size, rejects on an answer other than 2xx. */
export function send(agent: http.Agent, port: number, req: LoadRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...req.headers }
    if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body)
    const r = http.request({ host: '127.0.0.1', port, method: req.method, path: req.path, agent, headers }, (res) => {
      let bytes = 0
      res.on('data', (chunk: Buffer) => (bytes += chunk.length))
      res.on('end', () => (res.statusCode && res.statusCode < 300 ? resolve(bytes) : reject(new Error(`status ${res.statusCode}`))))
      res.on('error', reject)
    })
    r.on('error', reject)
    r.end(req.body)
  })
}

export interface LoadOptions {
  port: number
  connections: number
  warmupMs: number
  durationMs: number
  /** The next request; `n` counts every request sent, `connection` is `n` modulo `connections`. */
  request: (connection: number, n: number) => LoadRequest
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections })
  let n = 0
  let bodyBytes = 0
  const one = async () => {
    const next = n++
    bodyBytes = await send(agent, o.port, o.request(next % o.connections, next))
  }
  try {
    if (o.warmupMs > 0) {
      const warm = performance.now() + o.warmupMs
      await keepBusy(o.connections, () => performance.now() >= warm, one)
    }
    const deadline = performance.now() + o.durationMs
    const { latencies, errors, elapsedMs } = await keepBusy(o.connections, () => performance.now() >= deadline, one)
    return {
      requests: latencies.count,
      errors,
      rps: (latencies.count / elapsedMs) * 1000,
      p50Ms: latencies.percentile(50),
      p99Ms: latencies.percentile(99),
      bodyBytes,
    }
  } finally {
    agent.destroy()
  }
}
