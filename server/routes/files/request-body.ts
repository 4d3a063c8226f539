/**
 * Reading an upload's request body chunk by chunk, without hapi: the socket
 * is read no faster than `take` goes (it may await the disk), and however
 * the body ends the caller hears of it at once: ended, refused by `take`, cut
 * off (the client gone), or answered before it ended (Node's request or
 * headers timeout makes hapi answer 400 and close while the body is still
 * arriving).
 *
 * Not `stream.pipeline`: on a failure it destroys the request, and with it
 * the socket the answer must go out on; it also waits for a stalled client
 * before it says anything. A refused body is read on and thrown away here
 * (nothing more is stored), so the client gets its answer rather than a
 * reset connection.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

export function feedBody(req: IncomingMessage, res: ServerResponse, take: (chunk: Buffer) => void | Promise<void>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false
    let taking: Promise<void> = Promise.resolve()
    const settle = (err?: unknown): void => {
      if (settled) return
      settled = true
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('close', onClose)
      req.off('error', onError)
      res.off('close', onAnswered)
      if (err === undefined) return resolve()
      req.resume()
      reject(err instanceof Error ? err : new Error(String(err)))
    }
    const onData = (chunk: Buffer): void => {
      req.pause()
      taking = (async () => take(chunk))().then(() => {
        if (!settled) req.resume()
      })
      taking.catch(settle)
    }
    let ended = false
    const onEnd = (): void => {
      ended = true
      void taking.then(() => settle(), settle)
    }
    const onClose = (): void => {
      if (!ended) settle(new Error('the request body was cut off'))
    }
    const onError = (err: Error): void => settle(err)
    const onAnswered = (): void => settle(new Error('the request was answered before its body ended'))
    if (res.closed) return onAnswered()
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('close', onClose)
    req.on('error', onError)
    res.on('close', onAnswered)
  })
}
