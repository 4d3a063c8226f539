/**
 * The API shape of a File. Content is reached through signed, time-limited
 * addresses svc serves itself; a public file also gets a permanent and a
 * short address and its read token (granted by the file itself: good while
 * it stays public). In a stream, which carries no token, the permanent
 * address is the short one. The write token is shown only where the
 * spec says: at creation, or echoed back to the call that used it.
 */
import { derivedName, totalSize, type FileRow, type FileService, type FileView, type SignedContent } from '../../../data/index.js'
import type { DerivedFile, File, User } from '../../api/index.js'
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

export async function presentFiles(ctx: PresentContext, files: FileService, rows: readonly FileRow[], show: FileShow = {}): Promise<File[]> {
  const views = await files.views(rows)
  const users = new Map<number, User>()
  for (const view of views) if (view.user && !users.has(view.user.id)) users.set(view.user.id, await presentUser(ctx, view.user))
  return views.map((view) => fileJson(ctx, files, view, users.get(view.file.user_id), show))
}

export const presentFile = async (ctx: PresentContext, files: FileService, file: FileRow, show: FileShow = {}): Promise<File> =>
  (await presentFiles(ctx, files, [file], show))[0]

/** A derived file: readable only once the root is complete. */
function derivedJson(ctx: PresentContext, files: FileService, file: FileRow, key: string): DerivedFile {
  const d = file.derived[key]
  const name = derivedName(file, key)
  const signed = file.complete ? files.links.signContent(file, key) : null
  return {
    ...(name !== undefined ? { name } : {}),
    mime_type: d.mime_type,
    sha1: d.sha1,
    size: d.size,
    ...(signed ? { url: contentUrl(ctx.baseUrl, file, key, signed), url_expires: expiresIso(signed) } : {}),
    ...(d.image_info ? { image_info: d.image_info } : {}),
  }
}

function fileJson(ctx: PresentContext, files: FileService, view: FileView, user: User | undefined, show: FileShow): File {
  const { file, app } = view
  const streamed = show.streamed ?? ctx.streamed ?? false
  const readToken = file.public ? files.links.readToken(file) : show.file_token_read
  const signed = files.links.signContent(file, undefined)
  return {
    id: String(file.id),
    // A public file grants reading what its annotations carry; a private one hands out no read tokens there.
    ...(show.annotations ? { annotations: renderAnnotations(ctx, file.annotations, file.public ? { kind: 'f', id: file.id } : null) } : {}),
    complete: file.complete,
    created_at: file.created_at,
    derived_files: Object.fromEntries(Object.keys(file.derived).map((key) => [key, derivedJson(ctx, files, file, key)])),
    ...(show.file_token && !streamed ? { file_token: show.file_token } : {}),
    ...(readToken && !streamed ? { file_token_read: readToken } : {}),
    ...(file.content?.image_info ? { image_info: file.content.image_info } : {}),
    kind: file.kind,
    ...(file.content ? { mime_type: file.content.mime_type } : {}),
    ...(file.name !== undefined ? { name: file.name } : {}),
    public: file.public,
    ...(file.content ? { sha1: file.content.sha1, size: file.content.size } : {}),
    total_size: totalSize(file),
    source: app ? { name: app.name, link: app.link, client_id: app.client_id } : { name: 'svc', link: '', client_id: '' },
    type: file.type,
    ...(signed ? { url: contentUrl(ctx.baseUrl, file, undefined, signed), url_expires: expiresIso(signed) } : {}),
    ...(file.public && file.complete ? permanentUrls(ctx, files, file, streamed) : {}),
    ...(user ? { user } : {}),
  }
}

/** A public file's addresses that need no token: in a stream, which carries none, the permanent one is the short one. */
function permanentUrls(ctx: PresentContext, files: FileService, file: FileRow, streamed: boolean): Pick<File, 'url_permanent' | 'url_short'> {
  const ext = file.name ? EXT.exec(file.name)?.[1] : undefined
  const short = `${ctx.baseUrl}/f/${files.links.shortCode(file)}${ext ? `.${ext}` : ''}`
  return { url_permanent: streamed ? short : `${ctx.baseUrl}/files/${file.id}/content?file_token=${files.links.readToken(file)}`, url_short: short }
}
