/**
 * The API shape of a File. Content is reached through signed, time-limited
 * addresses svc serves itself; a public file also gets a permanent and a
 * short address and its read token (granted by the file itself: good while
 * it stays public). In a stream, which carries no token, the permanent
 * address is the short one. The write token is shown only where the
 * spec says: at creation, or echoed back to the call that used it.
 */
import { derivedName, totalSize, type FileRow, type FileService, type FileView, type SignedContent } from '../../../data/index.js'
import { renderAnnotations } from '../annotations.js'
import type { PresentContext } from '../context.js'
import { presentUser } from '../users/user.js'

export interface FileShow {
  /** The write token to show (the one just made, or the one the request used). */
  file_token?: string
  /** The read token the request used. */
  file_token_read?: string
  /** `include_annotations` or `include_file_annotations`. */
  annotations?: boolean
  /** For a stream, which carries no file token of any kind (Authentication rule 4); a stream's context says so too. */
  streamed?: boolean
}

const EXT = /\.([A-Za-z0-9]{1,10})$/

/** The signed address of a file's content (`key` undefined) or of one derived file. */
export const contentUrl = (baseUrl: string, file: FileRow, key: string | undefined, signed: SignedContent): string =>
  `${baseUrl}/files-content/${file.id}${key === undefined ? '' : `/${key}`}?expires=${signed.expires}&sig=${signed.sig}`

const expiresIso = (signed: SignedContent): string => new Date(signed.expires * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')

export async function presentFiles(ctx: PresentContext, files: FileService, rows: readonly FileRow[], show: FileShow = {}): Promise<Record<string, unknown>[]> {
  const views = await files.views(rows)
  const users = new Map<number, Record<string, unknown>>()
  for (const view of views) if (view.user && !users.has(view.user.id)) users.set(view.user.id, await presentUser(ctx, view.user))
  return views.map((view) => fileJson(ctx, files, view, users.get(view.file.user_id), show))
}

export const presentFile = async (ctx: PresentContext, files: FileService, file: FileRow, show: FileShow = {}): Promise<Record<string, unknown>> =>
  (await presentFiles(ctx, files, [file], show))[0]

function fileJson(ctx: PresentContext, files: FileService, view: FileView, user: Record<string, unknown> | undefined, show: FileShow): Record<string, unknown> {
  const { file, app } = view
  const streamed = show.streamed ?? ctx.streamed ?? false
  const out: Record<string, unknown> = { id: String(file.id) }
  // A public file grants reading what its annotations carry; a private one hands out no read tokens there.
  if (show.annotations) out.annotations = renderAnnotations(ctx, file.annotations, file.public ? { kind: 'f', id: file.id } : null)
  out.complete = file.complete
  out.created_at = file.created_at
  out.derived_files = Object.fromEntries(
    Object.entries(file.derived).map(([key, d]) => {
      const entry: Record<string, unknown> = {}
      const name = derivedName(file, key)
      if (name !== undefined) entry.name = name
      Object.assign(entry, { mime_type: d.mime_type, sha1: d.sha1, size: d.size })
      // Derived files are readable only once the root is complete.
      const signed = file.complete ? files.links.signContent(file, key) : null
      if (signed) Object.assign(entry, { url: contentUrl(ctx.baseUrl, file, key, signed), url_expires: expiresIso(signed) })
      if (d.image_info) entry.image_info = d.image_info
      return [key, entry]
    }),
  )
  if (show.file_token && !streamed) out.file_token = show.file_token
  const readToken = file.public ? files.links.readToken(file) : show.file_token_read
  if (readToken && !streamed) out.file_token_read = readToken
  if (file.content?.image_info) out.image_info = file.content.image_info
  out.kind = file.kind
  if (file.content) out.mime_type = file.content.mime_type
  if (file.name !== undefined) out.name = file.name
  out.public = file.public
  if (file.content) {
    out.sha1 = file.content.sha1
    out.size = file.content.size
  }
  out.total_size = totalSize(file)
  out.source = app ? { name: app.name, link: app.link, client_id: app.client_id } : { name: 'svc', link: '', client_id: '' }
  out.type = file.type
  const signed = files.links.signContent(file, undefined)
  if (signed) {
    out.url = contentUrl(ctx.baseUrl, file, undefined, signed)
    out.url_expires = expiresIso(signed)
  }
  if (file.public && file.complete) {
    const ext = file.name ? EXT.exec(file.name)?.[1] : undefined
    const short = `${ctx.baseUrl}/f/${files.links.shortCode(file)}${ext ? `.${ext}` : ''}`
    // A stream carries no file token, so there the permanent address is the short one, which needs none.
    out.url_permanent = streamed ? short : `${ctx.baseUrl}/files/${file.id}/content?file_token=${files.links.readToken(file)}`
    out.url_short = short
  }
  if (user) out.user = user
  return out
}
