/**
 * The floor the upload numbers are read against: a bare `node:http` server
 * doing only what any server that acknowledges a durable upload must do with
 * each body (receive it, SHA-1 it, write it in 1 MB writes, fsync), with no
 * framework, no multipart parsing and no store. Bodies go to files in the
 * folder given as the first argument and are removed after the answer; it
 * prints its port on the first line of stdout.
 */
import { createHash } from 'node:crypto'
import http from 'node:http'
import { open, unlink } from 'node:fs/promises'
import { join } from 'node:path'

const dir = process.argv[2]
const WRITE_BYTES = 1 << 20
let next = 0

async function receive(req: http.IncomingMessage): Promise<{ sha1: string; size: number }> {
  const path = join(dir, `floor-${process.pid}-${next++}`)
  const handle = await open(path, 'wx')
  const hash = createHash('sha1')
  let pending: Buffer[] = []
  let pendingBytes = 0
  let size = 0
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      hash.update(chunk)
      pending.push(chunk)
      pendingBytes += chunk.length
      size += chunk.length
      if (pendingBytes < WRITE_BYTES) continue
      await handle.writev(pending)
      pending = []
      pendingBytes = 0
    }
    if (pending.length > 0) await handle.writev(pending)
    await handle.sync()
  } finally {
    await handle.close()
    await unlink(path)
  }
  return { sha1: hash.digest('hex'), size }
}

const server = http.createServer((req, res) => {
  receive(req).then(
    (done) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(done)),
    (err: unknown) => res.writeHead(500).end(JSON.stringify({ error: String(err) })),
  )
})
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as { port: number }).port}\n`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
