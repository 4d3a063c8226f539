/**
 * Fetches a remote media file into the files folder's uploads, bounded in
 * every way a remote server could abuse: at most `maxBytes` (declared or
 * sent), a few redirects (each hop checked again), one deadline for the
 * whole exchange, http and https only. Unless private addresses are allowed
 * (instances on one machine, tests), the connection is refused to any
 * address that is not public unicast, checked on the address actually
 * connected to (request-filtering-agent), so a name that resolves to a
 * private address, or a redirect to one, reaches nothing inside.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { useAgent } from 'request-filtering-agent'
import type { Received } from '../../files/upload-writer.js'
import type { UploadWriter } from '../../files/upload-writer.js'

export interface MediaFetchOptions {
  maxBytes: number
  allowPrivateAddress: boolean
  /** The longest the whole exchange may take, redirects included (default 20 s). */
  timeoutMs?: number
  /** A writer into the uploads folder (`FileService.receiver`). */
  receiver: (maxBytes: number) => Promise<{ writer: UploadWriter; finish: () => Promise<Received> }>
}

/** What arrived: the synced temporary file, and the type its server gave (not trusted: the bytes decide what svc shows). */
export interface FetchedMedia {
  path: string
  contentType: string
}

const MAX_REDIRECTS = 3
const TIMEOUT_MS = 20_000

class MediaFetchError extends Error {}

/** Fetches `url`; answers null when it cannot be had within the bounds (the reason is not the caller's business). */
export async function fetchMedia(url: URL, options: MediaFetchOptions): Promise<FetchedMedia | null> {
  const deadline = AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS)
  try {
    return await fetchHop(url, options, deadline, 0)
  } catch {
    return null
  }
}

async function fetchHop(url: URL, options: MediaFetchOptions, signal: AbortSignal, hops: number): Promise<FetchedMedia> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new MediaFetchError(`not fetched: ${url.protocol}`)
  const response = await get(url, options, signal)
  const status = response.statusCode ?? 0
  if (status >= 300 && status < 400 && response.headers.location) {
    response.resume()
    if (hops >= MAX_REDIRECTS) throw new MediaFetchError('too many redirects')
    return fetchHop(new URL(response.headers.location, url), options, signal, hops + 1)
  }
  if (status !== 200) {
    response.resume()
    throw new MediaFetchError(`answered ${status}`)
  }
  const declared = Number(response.headers['content-length'] ?? 0)
  if (declared > options.maxBytes) {
    response.destroy()
    throw new MediaFetchError('too large')
  }
  const { writer, finish } = await options.receiver(options.maxBytes)
  try {
    for await (const chunk of response) await writer.write(chunk as Buffer)
    const done = await finish()
    return {
      path: done.path,
      contentType: String(response.headers['content-type'] ?? '')
        .split(';')[0]
        .trim()
        .toLowerCase(),
    }
  } catch (err) {
    response.destroy()
    await writer.abort()
    throw err
  }
}

function get(url: URL, options: MediaFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'GET',
      signal,
      headers: { accept: 'image/*, video/*, audio/*, */*;q=0.5', 'user-agent': 'svc (media)' },
      ...(options.allowPrivateAddress ? {} : { agent: useAgent(url.href) }),
    })
    req.on('response', resolve)
    req.on('error', reject)
    req.end()
  })
}
