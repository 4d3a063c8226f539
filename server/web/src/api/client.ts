/**
 * The API as this client calls it: `/stream/0` on the page's own origin,
 * the signed-in person's token in the Authorization header, answers
 * unwrapped from their envelope. A refused token signs the person out.
 */
import type { Envelope } from '../../../api'

export const API = '/stream/0'

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
  }
}

export type Query = Record<string, string | number | boolean | undefined>

let token: string | null = null
let onUnauthorized: () => void = () => undefined

/** Sets the token calls carry (null: anonymous) and what happens when the server refuses it. */
export function setApiToken(value: string | null, unauthorized: () => void = () => undefined): void {
  token = value
  onUnauthorized = unauthorized
}

export const currentToken = (): string | null => token

const withQuery = (path: string, query: Query = {}): string => {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v))
  const qs = params.toString()
  return `${API}${path}${qs ? `${path.includes('?') ? '&' : '?'}${qs}` : ''}`
}

/**
 * Starring and reposting answer the post that then replaces the one a view
 * shows: they ask for the annotations timelines ask for (`POST_QUERY`), or a
 * photo post's photos would go until a reload.
 */
const POST_ACTION = /^\/posts\/\d+\/(?:star|repost)$/
const POST_ACTION_QUERY: Query = { include_post_annotations: 1 }

async function call<T>(method: string, path: string, given?: Query, body?: unknown): Promise<Envelope<T>> {
  const query = POST_ACTION.test(path) ? { ...POST_ACTION_QUERY, ...given } : given
  const headers: Record<string, string> = {}
  if (token) headers.Authorization = `Bearer ${token}`
  let payload: BodyInit | undefined
  if (body instanceof FormData) payload = body
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  let res: Response
  try {
    res = await fetch(withQuery(path, query), { method, headers, body: payload })
  } catch {
    throw new ApiError('The server cannot be reached. Check your connection and try again.', 0)
  }
  if (res.status === 204) return { data: undefined as T, meta: { code: 204 } }
  const envelope = (await res.json().catch(() => null)) as Envelope<T> | null
  if (!res.ok || !envelope) {
    if (res.status === 401 && token) onUnauthorized()
    throw new ApiError(envelope?.meta?.error_message ?? `The server answered ${res.status}.`, res.status)
  }
  return envelope
}

export const api = {
  get: <T>(path: string, query?: Query) => call<T>('GET', path, query),
  post: <T>(path: string, body?: unknown, query?: Query) => call<T>('POST', path, query, body),
  put: <T>(path: string, body?: unknown, query?: Query) => call<T>('PUT', path, query, body),
  delete: <T>(path: string, query?: Query, body?: unknown) => call<T>('DELETE', path, query, body),
}
