/**
 * Reading a `multipart/form-data` upload body with busboy (@fastify/busboy:
 * its `isPartAFile` lets a `content` part without a filename be a file, which
 * busboy 1.x cannot). Each file part is piped into one of the domain's
 * upload writers, so busboy is paused while the disk catches up and a body
 * is never whole in memory; fields are kept as strings. Nothing is written
 * before the body is admitted (its caller known, with room for it): at the
 * start of its first file part at the latest, from the fields read so far.
 */
import { once } from 'node:events'
import { Writable, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { Busboy, type BusboyFileStream, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy'
import Boom from '@hapi/boom'
import type { Request } from '@hapi/hapi'
import { DomainError, invalid, type FileService, type UploadTicket } from '../../../data/index.js'
import { base64Decoder } from './base64-decoder.js'
import { feedBody } from './request-body.js'

/** A file part as the request's payload holds it. */
export interface FilePart {
  path: string
  bytes: number
  filename?: string
  headers?: Record<string, string>
}

export interface MultipartLimits {
  /** The whole body. */
  maxBytes: number
  /** One file part, as sent (before any base64 decoding). */
  maxFileBytes: number
  /** One form field. */
  maxFieldBytes: number
  maxParts: number
  /** Bytes that may arrive before the body is admitted (the fields ahead of its first file part). */
  maxBytesBeforeAdmission: number
  tooLarge: () => Error
}

/**
 * Admits the body given the fields read so far (a token may be one of
 * them); asked once, when the first file part starts, when the fields ahead
 * of it pass their bound, or when the body ends without a file part.
 */
export type Admit = (fields: Readonly<Record<string, unknown[]>>) => Promise<UploadTicket>

export const isMultipart = (contentType: string | undefined): boolean => /^multipart\/form-data\s*(;|$)/i.test(contentType ?? '')

/** A writer of one upload, from the domain. */
type Receiver = Awaited<ReturnType<FileService['receiver']>>

/** Busboy's own errors (a cut or malformed body) as 400; the domain's and hapi's as they are. */
const bodyError = (err: unknown): Error =>
  err instanceof DomainError || Boom.isBoom(err)
    ? err
    : Boom.badRequest(`the multipart body could not be read${err instanceof Error ? ` (${err.message})` : ''}`)

/**
 * Streams a multipart body into upload files (file parts: a non-empty
 * filename, or the `content` part) and fields, in hapi's payload shape: one
 * value per name, or an array when a name repeats. Every byte of a file part
 * is counted on the ticket `admit` gives. On any failure the files written
 * so far are removed.
 */
export async function readMultipart(service: FileService, request: Request, limits: MultipartLimits, admit: Admit): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown[]> = {}
  const add = (name: string, value: unknown) => (fields[name] ??= []).push(value)
  let admission: Promise<UploadTicket> | null = null
  const admitted = (): Promise<UploadTicket> => {
    if (!admission) {
      admission = admit(fields)
      // Whoever waits on it hears of a refusal; the body stops through them.
      admission.catch(() => undefined)
    }
    return admission
  }
  /** Every upload a part opened (or is opening): all are removed if the body fails. */
  const opened: Promise<Receiver>[] = []
  const files: Promise<void>[] = []
  const streams: Readable[] = []

  const receive = async (name: string, file: Readable, filename: string | undefined, encoding: string, mimeType: string): Promise<void> => {
    let receiver: Receiver | undefined
    let ticket: UploadTicket | undefined
    // Piped at once, the upload opening (once the body is admitted) as the stream starts: a part that fails meanwhile is never left without listeners.
    const sink = new Writable({
      construct: (done) => {
        const opening = admitted().then((t) => {
          ticket = t
          return service.receiver()
        })
        opened.push(opening)
        opening.then((r) => {
          receiver = r
          done()
        }, done)
      },
      write: (chunk: Buffer, _encoding, done) => {
        const counted = ticket as UploadTicket
        try {
          counted.take(chunk.length)
        } catch (err) {
          done(err as Error)
          return
        }
        void (receiver as Receiver).writer.write(chunk).then(() => done(), done)
      },
    })
    await (encoding === 'base64' ? pipeline(file, base64Decoder(), sink) : pipeline(file, sink))
    const done = await (receiver as Receiver).finish()
    add(name, { path: done.path, bytes: done.size, headers: { 'content-type': mimeType }, ...(filename ? { filename } : {}) } satisfies FilePart)
  }

  let busboy: BusboyInstance
  try {
    busboy = Busboy({
      headers: request.headers as BusboyHeaders,
      limits: { fileSize: limits.maxFileBytes, fieldSize: limits.maxFieldBytes, parts: limits.maxParts },
      isPartAFile: (name, _type, filename) => name !== undefined && (Boolean(filename) || name === 'content'),
    })
  } catch (err) {
    throw bodyError(err)
  }
  try {
    // Busboy is done once every part has been read (their files may still be syncing), or failed.
    const parsed = new Promise<void>((resolve, reject) => {
      busboy.on('finish', resolve)
      busboy.on('error', reject)
    })
    busboy.on('file', (name: string, file: BusboyFileStream, filename: string | undefined, encoding: string, mimeType: string) => {
      streams.push(file)
      file.on('limit', () => busboy.destroy(limits.tooLarge()))
      const received = receive(name, file, filename, encoding, mimeType)
      files.push(received)
      // A part that fails stops the body (busboy waits for a paused part forever).
      received.catch((err: unknown) => busboy.destroy(err as Error))
    })
    busboy.on('field', (name: string | undefined, value: string, _nameTruncated: boolean, truncated: boolean, encoding: string) => {
      if (truncated) busboy.destroy(invalid(`a form field may hold at most ${limits.maxFieldBytes} bytes`))
      else if (name !== undefined) add(name, encoding === 'base64' ? Buffer.from(value, 'base64').toString('utf8') : value)
    })
    busboy.on('partsLimit', () => busboy.destroy(Boom.badRequest(`a multipart body may have at most ${limits.maxParts} parts`)))
    let total = 0
    const fed = feedBody(request.raw.req, request.raw.res, async (chunk) => {
      total += chunk.length
      if (total > limits.maxBytes) throw limits.tooLarge()
      // Fields ahead of any file part are held in memory: an unknown caller may send only so many.
      if (!admission && total > limits.maxBytesBeforeAdmission) await admitted()
      if (!busboy.write(chunk)) await Promise.race([once(busboy, 'drain'), parsed])
    })
    // Heard of through `parsed` when busboy fails first.
    fed.catch(() => undefined)
    await Promise.race([
      fed.then(() => {
        busboy.end()
        return parsed
      }),
      parsed,
    ])
    await Promise.all(files)
    await admitted()
  } catch (err) {
    // A part cut off stays open (busboy does not end it). Destroyed with no error, a part that had ended
    // but was not yet read would end its pipeline never. Only once every part has settled are all writers known.
    busboy.destroy()
    for (const stream of streams) stream.destroy(new Error('the multipart body failed'))
    await Promise.allSettled(files)
    const receivers = (await Promise.allSettled(opened)).flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))
    for (const receiver of receivers) await receiver.writer.abort()
    await service.discardUploads(receivers.map((r) => r.writer.path))
    throw bodyError(err)
  }
  return Object.fromEntries(Object.entries(fields).map(([name, values]) => [name, values.length === 1 ? values[0] : values]))
}
