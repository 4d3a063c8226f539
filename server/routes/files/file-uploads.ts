/**
 * Reading upload bodies for the files routes. Multipart bodies (and raw
 * bodies of the content routes) are read by svc, not hapi (multipart with
 * busboy, see multipart.ts), and only once paid for: the caller is
 * authenticated, allowed, within the uploads at once and with room for what
 * the body's length says (`FileService.admitUpload`), before a byte of the
 * body is stored. The token comes from the `Authorization` header or the
 * query; in a multipart body, an `access_token` field counts only ahead of
 * the first file part (the body is admitted as that part starts). Each file
 * part streams into the domain's upload writer (hashed as it is written,
 * never whole in memory, the socket read no faster than the disk takes it),
 * its bytes counted against the storage left as they arrive. The result is
 * set as the request's payload in hapi's own shape (fields, file parts as
 * `{ path, bytes }`), so `tokenOf` reads a form field `access_token` like any
 * body's. This turns that into the domain's `Upload`s and metadata. However
 * the request ends (answered, refused, cut off by the client or by Node's
 * timeouts), its temporary files go (those the domain adopted have moved
 * already) and its place among the uploads at once is given back.
 */
import { readFile } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { parse as parseQuery } from 'node:querystring'
import Boom from '@hapi/boom'
import type { Request, RouteOptions } from '@hapi/hapi'
import {
  DomainError,
  invalid,
  MAX_CUSTOM_DERIVED_FILES,
  type DerivedUpload,
  type AuthServices,
  type FileService,
  type InstanceConfig,
  type FileInput,
  type Upload,
  type UploadTicket,
} from '../../../data/index.js'
import { checkAccess, tokenOf } from '../../auth.js'
import { isMultipart, readMultipart, type FilePart } from './multipart.js'
import { feedBody } from './request-body.js'

/** Room for multipart framing and metadata around the bytes themselves. */
const SLACK = 1024 * 1024
/** Parts of one multipart body: the content, metadata fields and every custom derived file, with room to spare. */
const MAX_PARTS = MAX_CUSTOM_DERIVED_FILES + 32
/** The most a JSON or form body describing an incomplete file, or one form field, may hold. */
const METADATA_MAX_BYTES = 64 * 1024
/** What a multipart body may hold ahead of its first file part, before it is admitted: a few fields. */
const BEFORE_ADMISSION_MAX_BYTES = 4 * METADATA_MAX_BYTES

const isFilePart = (value: unknown): value is FilePart =>
  typeof value === 'object' && value !== null && typeof (value as FilePart).path === 'string' && typeof (value as FilePart).bytes === 'number'

/** What taking an upload in needs: the files service, the tokens (a form's token field signs it in) and the size limits. */
export interface Uploading {
  readonly files: FileService
  readonly tokens: AuthServices['tokens']
  readonly limits: InstanceConfig['limits']
}

const tooLarge = (up: Uploading): DomainError => new DomainError('quota', `files may be at most ${up.limits.max_file_size} bytes; nothing was stored`)

const filePartsOf = (payload: unknown): FilePart[] =>
  (isFilePart(payload) ? [payload] : payload && typeof payload === 'object' ? Object.values(payload).flat() : []).filter(isFilePart)

/** What reading a raw body failed on, as an answer: the domain's errors as they are, a broken body as 400. */
const bodyError = (err: unknown): Error => (err instanceof DomainError || Boom.isBoom(err) ? err : Boom.badRequest('the request body could not be read'))

/** Streams a raw body into one upload file, every byte counted on `ticket`. */
async function readRaw(up: Uploading, request: Request, ticket: UploadTicket): Promise<FilePart> {
  const receiver = await up.files.receiver()
  try {
    await feedBody(request.raw.req, request.raw.res, async (chunk) => {
      ticket.take(chunk.length)
      await receiver.writer.write(chunk)
    })
    const done = await receiver.finish()
    return { path: done.path, bytes: done.size }
  } catch (err) {
    await receiver.writer.abort()
    throw bodyError(err)
  }
}

/** As every route says it (an `access_token` field after the first file part is not read: the body was refused before it). */
const unauthenticated = (): DomainError =>
  new DomainError('unauthenticated', 'Call requires authentication: This resource requires authentication and no token was provided.')

/** The admission of each upload request, for whichever way it ends to give back. */
const tickets = new WeakMap<Request, UploadTicket>()

/** Gives back what an upload request holds: its place among the uploads at once and its temporary files. */
async function settle(up: Uploading, request: Request): Promise<void> {
  tickets.get(request)?.release()
  await up.files.discardUploads(filePartsOf(request.payload).map((p) => p.path)).catch(() => undefined)
}

/** Has the client gone (or Node given up on the request) already? Its response closes with the socket. */
const gone = (request: Request): boolean => request.raw.res.closed

/**
 * Admits an upload request for `token` (see `FileService.admitUpload`), the
 * route's token rules checked first; the admission is given back once the
 * response is done, whichever way.
 */
async function admission(up: Uploading, request: Request, token: string | undefined, multipart: boolean): Promise<UploadTicket> {
  if (!token) throw unauthenticated()
  const viewer = await up.tokens.authenticate(token)
  const route = request.route.settings.plugins?.svc
  if (route) checkAccess(viewer, route.token, route.scopes)
  const length = Number(request.headers['content-length'])
  const known = Number.isSafeInteger(length) && length >= 0
  // A raw body is the file; a multipart body's framing and fields get the slack.
  const declared = known ? (multipart ? Math.max(0, length - SLACK) : length) : 0
  const ticket = await up.files.admitUpload(viewer, { declared, oneFile: !multipart })
  tickets.set(request, ticket)
  if (gone(request)) ticket.release()
  else request.raw.res.once('close', () => void settle(up, request))
  return ticket
}

/** A multipart body's `access_token` field, as far as it has been read. */
const fieldToken = (fields: Readonly<Record<string, unknown[]>>): string | undefined => {
  const value = fields.access_token?.[0]
  return typeof value === 'string' && value.length > 0 ? value : undefined
}

/**
 * Route options for uploads: multipart bodies always, and other bodies too
 * when `raw` (`PUT .../content`), are admitted and read by svc before hapi's
 * own steps (see above); any other body (a JSON or form body read by
 * `metadataOf`) is handed over by hapi as a stream.
 */
export function uploadOptions(up: Uploading, raw: boolean, maxBytes = up.limits.max_file_size + SLACK): Pick<RouteOptions, 'payload' | 'ext'> {
  return {
    payload: {
      parse: true,
      output: 'stream',
      maxBytes,
      failAction: async (_request, _h, err) => {
        throw Boom.isBoom(err) && err.output.statusCode === 413 ? tooLarge(up) : Boom.badRequest(err instanceof Error ? err.message : 'invalid body')
      },
    },
    ext: {
      onPreAuth: {
        method: async (request, h) => {
          const multipart = isMultipart(request.headers['content-type'] as string | undefined)
          if (!multipart && !raw) return h.continue
          // No body read yet: the header's or the query's token, if any.
          const early = tokenOf(request)
          const ticket = early || !multipart ? await admission(up, request, early, multipart) : null
          if (Number(request.headers['content-length'] ?? 0) > maxBytes) throw tooLarge(up)
          // hapi answers `Expect: 100-continue` when it reads the body itself; here svc does, once it wants the body.
          const pending = request as unknown as { _expectContinue?: boolean }
          if (pending._expectContinue) {
            pending._expectContinue = false
            request.raw.res.writeContinue()
          }
          // A payload set before hapi's payload step is kept as it is (hapi only drains the socket).
          const payload = multipart
            ? await readMultipart(
                up.files,
                request,
                {
                  maxBytes,
                  maxFileBytes: up.limits.max_file_size,
                  maxFieldBytes: METADATA_MAX_BYTES,
                  maxParts: MAX_PARTS,
                  maxBytesBeforeAdmission: BEFORE_ADMISSION_MAX_BYTES,
                  tooLarge: () => tooLarge(up),
                },
                async (fields) => ticket ?? admission(up, request, fieldToken(fields), true),
              )
            : await readRaw(up, request, ticket as UploadTicket)
          Object.assign(request, { payload })
          // Cut off just as the body ended: nothing will answer, so nothing else would remove its files.
          if (gone(request)) await settle(up, request)
          return h.continue
        },
      },
      onPreResponse: {
        // Awaited: once a client has its answer, no temporary file of its request is left (a refused upload stores nothing).
        method: async (request, h) => {
          await settle(up, request)
          return h.continue
        },
      },
    },
  }
}

/** The mime type of a part or body: its `Content-Type` without parameters. */
const mimeOf = (contentType: string | undefined): string => contentType?.split(';')[0].trim().toLowerCase() || 'application/octet-stream'

export const uploadOfPart = (part: FilePart): Upload => ({
  path: part.path,
  mime_type: mimeOf(part.headers?.['content-type']),
  ...(part.filename ? { filename: part.filename } : {}),
})

/** A raw body (`PUT .../content`) as an upload; `X-SVC-Filename` names it. */
export function uploadOfBody(request: Request): Upload {
  const body = request.payload as unknown
  if (!isFilePart(body)) throw invalid('the body must hold the file content')
  const filename = request.headers['x-svc-filename']
  return {
    path: body.path,
    mime_type: mimeOf(request.headers['content-type'] as string | undefined),
    ...(typeof filename === 'string' && filename ? { filename } : {}),
  }
}

const readStream = async (stream: Readable): Promise<Buffer> => {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    size += (chunk as Buffer).length
    if (size > METADATA_MAX_BYTES) throw invalid(`a body without file content may hold at most ${METADATA_MAX_BYTES} bytes`)
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

const parseJson = (text: string): Record<string, unknown> => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw invalid('metadata must be JSON')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid('metadata must be a JSON object')
  return parsed as Record<string, unknown>
}

const single = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value)

/**
 * What `POST /files` carries: metadata from a JSON or form body alone (an
 * incomplete file), or from a multipart body's form fields or JSON
 * `metadata` part, with its `content` part and every other file part as a
 * derived file named by its part.
 */
export async function createBodyOf(request: Request): Promise<{ input: FileInput; content?: Upload; derived: DerivedUpload[] }> {
  const payload = request.payload as unknown
  if (payload && typeof (payload as Readable).pipe === 'function') {
    const text = (await readStream(payload as Readable)).toString('utf8')
    const mime = mimeOf(request.headers['content-type'] as string | undefined)
    if (text.trim() === '') return { input: {}, derived: [] }
    if (mime === 'application/x-www-form-urlencoded') return { input: parseQuery(text) as FileInput, derived: [] }
    if (mime.endsWith('json')) return { input: parseJson(text), derived: [] }
    throw invalid('send the file as multipart/form-data, or its metadata as JSON or form fields')
  }
  const fields = (payload ?? {}) as Record<string, unknown>
  let input: FileInput = {}
  const derived: DerivedUpload[] = []
  let content: Upload | undefined
  for (const [name, value] of Object.entries(fields)) {
    const first = single(value)
    if (name === 'metadata') {
      input = { ...input, ...parseJson(isFilePart(first) ? (await readFile(first.path)).toString('utf8') : String(first)) }
    } else if (isFilePart(first)) {
      if (Array.isArray(value)) throw invalid(`part ${name} is given more than once`)
      if (name === 'content') content = uploadOfPart(first)
      else derived.push({ key: name, ...uploadOfPart(first) })
    } else if (['type', 'kind', 'name', 'public'].includes(name)) {
      input = { [name]: first, ...input }
    }
  }
  return { input, content, derived }
}

/** A derived file from a raw body (`X-SVC-Filename`) or a multipart `content` part (a `type` field may give its mime type). */
export function derivedOf(request: Request, key: string): DerivedUpload {
  const payload = request.payload as unknown
  if (isFilePart(payload)) return { key, ...uploadOfBody(request) }
  const fields = (payload ?? {}) as Record<string, unknown>
  const part = single(fields.content)
  if (!isFilePart(part)) throw invalid('the derived file goes in a part named content')
  const upload = uploadOfPart(part)
  const type = single(fields.type)
  return { key, ...upload, ...(typeof type === 'string' && type.includes('/') ? { mime_type: mimeOf(type) } : {}) }
}
