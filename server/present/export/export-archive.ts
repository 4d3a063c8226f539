/**
 * A user's export as a ZIP, written as it is read: each JSON file is an
 * array made a page at a time and each file's bytes are read from disk when
 * the archive reaches them (yazl writes entries one after the other), so an
 * account of any size never sits in memory. Every object is in the API's
 * own shape, presented as the API presents it to this user.
 */
import { createReadStream } from 'node:fs'
import { Readable } from 'node:stream'
import yazl from 'yazl'
import type { AccountExport, FileRow, PostRow, UserRow } from '../../../data/index.js'
import { presentChannels } from '../channels/channel.js'
import { presentMarker } from '../channels/marker.js'
import { presentMessages } from '../channels/message.js'
import type { PresentContext } from '../context.js'
import { presentFiles } from '../files/file.js'
import { presentPostsJson } from '../posts/post.js'
import { presentUser, presentUsers } from '../users/user.js'
import { exportReadme } from './export-readme.js'

/** What the exported objects show: everything the API can (annotations of every kind, html). */
export const EXPORT_OPTIONS: PresentContext['options'] = { include_annotations: true, include_html: true }

/** A JSON array written a page at a time, one item a line. */
async function* jsonArray<R>(pages: AsyncIterable<readonly R[]>, present: (rows: readonly R[]) => Promise<string[]>): AsyncGenerator<string> {
  let first = true
  yield '['
  for await (const rows of pages) {
    for (const item of await present(rows)) {
      yield `${first ? '\n' : ',\n'}${item}`
      first = false
    }
  }
  yield first ? ']\n' : '\n]\n'
}

async function* once<R>(rows: readonly R[]): AsyncGenerator<readonly R[]> {
  if (rows.length > 0) yield rows
}

const asJson = async (values: Promise<unknown[]>): Promise<string[]> => (await values).map((v) => JSON.stringify(v))

/** Where a file's bytes go in the archive: `files/<id>-<name>`, the name one path segment (the id before it: never `..`) that any system can write. */
export function fileEntryName(file: FileRow): string {
  const name = [...(file.name ?? '').replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_')].slice(0, 120).join('')
  return name ? `files/${file.id}-${name}` : `files/${file.id}`
}

/**
 * The ZIP of `account`, made as it is read from; `ctx` presents as the
 * exporting user (their export viewer). A read that fails half way ends the
 * stream with that error: the download breaks rather than look complete.
 */
export function exportArchive(ctx: PresentContext, account: AccountExport, madeAt: Date): Readable {
  const zip = new yazl.ZipFile()
  const output = zip.outputStream as Readable
  // An error on the zip stops yazl pumping entries, then ends the output with it.
  zip.on('error', (err: Error) => output.destroy(err))
  const fail = (err: unknown): void => {
    zip.emit('error', err instanceof Error ? err : new Error(String(err)))
  }
  const options = { mtime: madeAt }
  const addLines = (name: string, lines: () => AsyncIterable<string>): void =>
    zip.addReadStreamLazy(name, options, (cb) => {
      const stream = Readable.from(lines())
      stream.on('error', fail)
      cb(null, stream)
    })
  const addBytes = (name: string, path: string, size: number): void =>
    // Photos and videos are compressed already: stored as they are.
    zip.addReadStreamLazy(name, { ...options, size, compress: false }, (cb) => {
      const stream = createReadStream(path)
      stream.on('error', fail)
      cb(null, stream)
    })

  const files = ctx.views.files
  const users = (rows: readonly UserRow[]) => asJson(presentUsers(ctx, rows))
  const posts = async (rows: readonly PostRow[]) => (await presentPostsJson(ctx, rows)).map((p) => p.object().json)
  const build = async (): Promise<void> => {
    const channels = await account.channels()
    zip.addBuffer(Buffer.from(exportReadme(account.user.username, ctx.baseUrl, madeAt, channels)), 'README.txt', options)
    addLines('profile.json', async function* () {
      yield `${JSON.stringify(await presentUser(ctx, account.user))}\n`
    })
    addLines('posts.json', () => jsonArray(account.posts(), posts))
    addLines('stars.json', () => jsonArray(account.stars(), posts))
    addLines('following.json', () => jsonArray(account.follows('following'), users))
    addLines('followers.json', () => jsonArray(account.follows('followers'), users))
    addLines('muted.json', async function* () {
      yield* jsonArray(once(await account.hidden('mutes')), users)
    })
    addLines('blocked.json', async function* () {
      yield* jsonArray(once(await account.hidden('blocks')), users)
    })
    addLines('channels.json', () => jsonArray(once(channels), (rows) => asJson(presentChannels(ctx, rows))))
    for (const channel of channels) {
      addLines(`messages/${channel.id}.json`, () => jsonArray(account.messages(channel), (rows) => asJson(presentMessages(ctx, rows))))
    }
    addLines('markers.json', async function* () {
      const markers = await account.markers(channels)
      yield* jsonArray(once(markers), async (rows) => rows.map((row) => JSON.stringify(presentMarker(row.name, row))))
    })
    addLines('files.json', () => jsonArray(account.files(), (rows) => asJson(presentFiles(ctx, files, rows, { annotations: true }))))
    await addFileBytes(account, addBytes)
    zip.end()
  }
  build().catch(fail)
  return output
}

/** An entry for the bytes of each of the account's files that has them (a second walk of the list: only names are held). */
async function addFileBytes(account: AccountExport, add: (name: string, path: string, size: number) => void): Promise<void> {
  for await (const rows of account.files()) {
    for (const file of rows) {
      const content = account.contentOf(file)
      if (content) add(fileEntryName(file), content.path, content.size)
    }
  }
}
