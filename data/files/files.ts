/**
 * Files: uploads with their derived files, kept in the files folder (see
 * file-bytes.ts) and described by `files` rows. A file is complete once its
 * root content is set (at creation or later, once); custom derived files are
 * added only before. Bytes are durable before the row that points at them
 * commits, and a failed call removes what it wrote. Uploads handed to the
 * service are its own from then on: adopted, or removed.
 *
 * Who may do what (the spec's Authentication rule 4): the owner with the
 * `files` scope everything; the upload scopes (`write_post`, `messages`,
 * `public_messages`, `update_profile`) create files and, with the write
 * token they got, go on with them. A write token (`file_token`) is the
 * owner's only: another user, or a call without an access token, gets
 * nothing from it. A read token (`file_token_read`) reads the file, whoever
 * asks, while the object it names grants it: a public file its own (or
 * another public file carrying it), a post, message, channel or user that
 * carries it in its annotations while it exists, still carries it, and the
 * caller may see it (see file-grants.ts). Everyone else finds no such file.
 */
import { DomainError, forbidden, invalid, notFound } from '../errors.js'
import { MAX_CUSTOM_DERIVED_FILES, MAX_FILE_IDS } from '../limits.js'
import type { AppRow } from '../model/app.js'
import type { UserRow } from '../model/user.js'
import { derivedName, totalSize, type DerivedFileRow, type FileRow, type StoredContent } from '../model/file.js'
import { mergeAnnotations } from '../annotations/annotations.js'
import type { AnnotationReplacer } from '../annotations/replacements.js'
import { paginate, type Page, type PageQuery } from '../pagination/pagination.js'
import { hashSecret } from '../security/secrets.js'
import type { Store, TableReader, Tx } from '../store/port.js'
import { visitRows } from '../store/scan-rows.js'
import { isoNow } from '../time.js'
import { hasScope, type Viewer } from '../viewer.js'
import type { InstanceConfig } from '../config.js'
import { FileBytes } from './file-bytes.js'
import { imageInfoOf, makeThumbnail, THUMBNAIL_KEYS, thumbnailProblem } from './file-images.js'
import { FileLinks, type Grant, type SignedContent } from '../security/file-links.js'
import type { GrantChecker } from './file-grants.js'
import { checkDerivedKey, checkFileName, checkFileType, checkKind, guessKind } from './file-rules.js'
import { deliveryOf, inertType, type Delivery } from './file-delivery.js'
import { UploadGate, type UploadTicket } from './upload-gate.js'

/** The file type of svc's copies of other servers' media. */
export const REMOTE_MEDIA_TYPE = 'svc.federation.media'

/** Scopes that allow uploads but not the rest of file use. */
export const UPLOAD_SCOPES = ['files', 'write_post', 'messages', 'public_messages', 'update_profile'] as const

/** An uploaded byte file waiting in the uploads folder. */
export interface Upload {
  path: string
  mime_type: string
  /** The client's file name, if it gave one. */
  filename?: string
}

export interface DerivedUpload extends Upload {
  key: string
}

/** Metadata of a new file as the client sent it; checked here. */
export interface FileInput {
  type?: unknown
  kind?: unknown
  name?: unknown
  public?: unknown
  annotations?: unknown
}

/** What `PUT`/`PATCH /files/{id}` may change. */
export interface FileChanges {
  name?: unknown
  public?: unknown
  annotations?: unknown
}

/** The file tokens a request carried (`file_token` query parameter: a write or a read token). */
export interface FileTokens {
  file_token?: string
}

/** How a viewer reached a file: as its owner (`files` scope), with its write token, or with its read token. */
export type FileAccess = 'owner' | 'write_token' | 'read_token'

export interface FileListFilter {
  file_types?: readonly string[]
  include_incomplete?: boolean
  include_private?: boolean
}

/** What a File object shows beyond its row: its creator and its app. */
export interface FileView {
  file: FileRow
  user: UserRow | null
  app: AppRow | null
}

/** A byte file to serve, and how (see file-delivery.ts). */
export interface FileContent extends Delivery {
  path: string
  /** The type the client gave, as the API reports it; `type` is what is sent. */
  mime_type: string
  size: number
  name?: string
}

const quota = (message: string): DomainError => new DomainError('quota', message)
const ALL = { limit: Number.MAX_SAFE_INTEGER, order: 'asc' } as const

const isOwner = (viewer: Viewer, file: FileRow): boolean => viewer.token?.kind === 'user' && viewer.user?.id === file.user_id

/** How long a temporary upload may sit untouched before it is taken for litter, and how often that is checked. */
export const STALE_UPLOAD_MS = 10 * 60_000
const UPLOAD_SWEEP_EVERY_MS = 60_000

export class FileService {
  private sweeper: NodeJS.Timeout | null = null
  private readonly gate = new UploadGate()

  constructor(
    private readonly store: Store,
    readonly bytes: FileBytes,
    private readonly limits: InstanceConfig['limits'],
    /** Signs the files' tokens and addresses (shared with the annotation replacer). */
    readonly links: FileLinks,
    /** Resolves replacement values (`+svc.core.file`, ...) in a file's own annotations. */
    private readonly replacer?: AnnotationReplacer,
    /** Whether a post, message, channel or user still grants the read tokens it handed out; without it only files grant. */
    private readonly grants?: GrantChecker,
  ) {}

  /** Where uploads must be written to (same filesystem as the files folder). */
  get uploadsDir(): string {
    return this.bytes.uploads
  }

  /**
   * A writer for an upload as it arrives, into the uploads folder (see
   * `FileBytes.receiver`); more than `maxBytes` fails it with `quota`.
   */
  receiver(maxBytes: number = this.limits.max_file_size) {
    return this.bytes.receiver(maxBytes, () => quota(`files may be at most ${this.limits.max_file_size} bytes; nothing was stored`))
  }

  /**
   * Admits one upload body of the viewer's before a byte of it is read:
   * `declared` is the least the body says it holds (from its length),
   * `oneFile` that the body is the file itself (so `max_file_size` bounds it
   * too). The ticket's `take` counts the bytes as they arrive and stops the
   * body once the user's uploads in flight pass the storage left; `release`
   * it however the request ends. Errors: `unauthenticated` (no token),
   * `forbidden` (not a user token), `quota` (more than the storage left or a
   * file's limit), `rate_limited` (too many uploads at once, the user's or
   * everyone's).
   */
  async admitUpload(viewer: Viewer, { declared = 0, oneFile = false }: { declared?: number; oneFile?: boolean }): Promise<UploadTicket> {
    if (!viewer.token) throw required()
    if (viewer.token.kind !== 'user' || !viewer.user) throw forbidden('files belong to a user; use a user token')
    const userId = viewer.user.id
    if (oneFile && declared > this.limits.max_file_size) throw quota(`files may be at most ${this.limits.max_file_size} bytes; nothing was stored`)
    const left = this.limits.storage - (await this.usedBy(userId))
    if (declared > left - this.gate.inFlight(userId)) throw this.overStorage(Math.max(0, left - this.gate.inFlight(userId)))
    return this.gate.enter(userId, left, (remaining) => this.overStorage(remaining))
  }

  private overStorage(left: number): DomainError {
    return quota(`not enough storage: ${left} of ${this.limits.storage} bytes left; nothing was stored`)
  }

  /** Removes temporary uploads a request wrote and no call adopted. */
  discardUploads(paths: readonly string[]): Promise<void> {
    return this.bytes.removeUploads(paths)
  }

  /** Creators and apps of `files`, in order. */
  async views(files: readonly FileRow[]): Promise<FileView[]> {
    const r = this.store.read
    const users = new Map((await r.users.getMany([...new Set(files.map((f) => f.user_id))])).map((u) => [u.id, u]))
    const apps = new Map((await r.apps.getMany([...new Set(files.map((f) => f.app_id))])).map((a) => [a.id, a]))
    return files.map((file) => ({ file, user: users.get(file.user_id) ?? null, app: apps.get(file.app_id) ?? null }))
  }

  /** Bytes a user's files hold, derived files included: the token's `storage.used`. */
  async usedBy(userId: number, r: TableReader<FileRow> = this.store.read.files): Promise<number> {
    const files = await r.getMany(await r.ids('user', userId, ALL))
    return files.reduce((sum, f) => sum + totalSize(f), 0)
  }

  /**
   * Creates a file of the viewer's, complete when `content` is given; the
   * derived uploads are stored with it. Answers the row and its write token
   * (shown this once). Errors: `unauthenticated`/`forbidden` (no user token
   * with an upload scope), `invalid` (metadata, derived keys or thumbnails),
   * `quota` (over `max_file_size` or the user's storage). Emits `file.created`.
   */
  create(viewer: Viewer, input: FileInput, content?: Upload, derived: readonly DerivedUpload[] = []): Promise<{ file: FileRow; file_token: string }> {
    return this.consuming([content, ...derived], () => this.createNow(viewer, input, content, derived))
  }

  private async createNow(
    viewer: Viewer,
    input: FileInput,
    content: Upload | undefined,
    derived: readonly DerivedUpload[],
  ): Promise<{ file: FileRow; file_token: string }> {
    const user = uploaderOf(viewer)
    const type = checkFileType(input.type)
    const name = checkFileName(input.name)
    const fileName = name ?? checkFileName(content?.filename)
    const kind = checkKind(input.kind)
    const isPublic = checkPublic(input.public) ?? false
    const annotations = mergeAnnotations([], (await this.replaced(input.annotations, user.id, isPublic)) ?? [])
    const keys = derived.map((d) => checkDerivedKey(d.key))
    if (new Set(keys).size !== keys.length) throw invalid('each derived file key may be given once')
    if (keys.filter((k) => !THUMBNAIL_KEYS.includes(k)).length > MAX_CUSTOM_DERIVED_FILES)
      throw invalid(`a file may have at most ${MAX_CUSTOM_DERIVED_FILES} custom derived files`)
    await this.checkQuota(user.id, [content, ...derived])
    const written: string[] = []
    const derivedRows: Record<string, DerivedFileRow> = {}
    const root = await this.removingOnFailure(written, async () => {
      for (const d of derived) derivedRows[d.key] = await this.storeDerived(d, written)
      return content ? await this.storeRoot(content, derivedRows, written) : undefined
    })
    return this.insertFile(
      {
        user_id: user.id,
        app_id: viewer.app?.id ?? 0,
        type,
        kind: kind ?? guessKind(root?.mime_type),
        ...(kind ? { kind_given: true } : {}),
        ...(fileName === undefined ? {} : { name: fileName }),
        public: isPublic,
        complete: root !== undefined,
        ...(root ? { content: root } : {}),
        derived: derivedRows,
        annotations,
        created_at: isoNow(),
      },
      written,
      (tx, row) => this.recheckQuota(tx, user.id, totalSize(row)),
    )
  }

  /** `work`, which writes byte files into `written`: they are removed when it fails. */
  private async removingOnFailure<T>(written: string[], work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (err) {
      await this.bytes.remove(written)
      throw err
    }
  }

  /**
   * Inserts a file row of `fields` with its write token's hash (the token
   * signs the id, known only once the row is inserted); `check` runs in the
   * same transaction. A failure removes the byte files `written`. Answers
   * the row and its write token. Emits `file.created`.
   */
  private insertFile(
    fields: Omit<FileRow, 'id' | 'token_hash'>,
    written: string[],
    check?: (tx: Tx, row: FileRow) => Promise<void>,
  ): Promise<{ file: FileRow; file_token: string }> {
    return this.removingOnFailure(written, async () => {
      const file = await this.store.transact(async (tx) => {
        const inserted = tx.files.insert({ ...fields, token_hash: '' })
        const row = tx.files.put({ ...inserted, token_hash: hashSecret(this.links.writeToken(inserted)) })
        await check?.(tx, row)
        tx.emit('file.created', { file: row })
        return row
      })
      return { file, file_token: this.links.writeToken(file) }
    })
  }

  /**
   * Sets the root content of an incomplete file, completing it (thumbnails
   * made for an image). Errors: `not_found`, `forbidden` (read access only),
   * `invalid` (already complete), `quota`. Emits `file.updated`.
   */
  setContent(viewer: Viewer, id: number, tokens: FileTokens, content: Upload): Promise<FileRow> {
    return this.consuming([content], () => this.setContentNow(viewer, id, tokens, content))
  }

  private async setContentNow(viewer: Viewer, id: number, tokens: FileTokens, content: Upload): Promise<FileRow> {
    const current = await this.writable(viewer, id, tokens)
    if (current.complete) throw invalid(`file ${id} is complete: its content is set once`)
    await this.checkQuota(current.user_id, [content])
    const written: string[] = []
    try {
      const derived = { ...current.derived }
      const root = await this.storeRoot(content, derived, written)
      return await this.store.transact(async (tx) => {
        const row = await tx.files.get(id)
        if (!row) throw notFound(`file ${id} not found`)
        if (row.complete) throw invalid(`file ${id} is complete: its content is set once`)
        const name = row.name ?? (content.filename ? checkFileName(content.filename) : undefined)
        const file = tx.files.put({
          ...row,
          ...(name === undefined ? {} : { name }),
          kind: row.kind_given ? row.kind : guessKind(root.mime_type),
          complete: true,
          content: root,
          derived: { ...row.derived, ...Object.fromEntries(Object.entries(derived).filter(([k]) => !row.derived[k])) },
        })
        await this.recheckQuota(tx, row.user_id, totalSize(file) - totalSize(row))
        tx.emit('file.updated', { file })
        return file
      })
    } catch (err) {
      await this.bytes.remove(written)
      throw err
    }
  }

  /**
   * Adds a custom derived file to an incomplete file; derived files never
   * change once added. Errors: `not_found`, `forbidden`, `invalid` (complete
   * file, key taken or reserved, over 32, a bad reserved thumbnail), `quota`.
   * Emits `file.updated`.
   */
  addDerived(viewer: Viewer, id: number, tokens: FileTokens, upload: DerivedUpload): Promise<FileRow> {
    return this.consuming([upload], () => this.addDerivedNow(viewer, id, tokens, upload))
  }

  private async addDerivedNow(viewer: Viewer, id: number, tokens: FileTokens, upload: DerivedUpload): Promise<FileRow> {
    const key = checkDerivedKey(upload.key)
    const current = await this.writable(viewer, id, tokens)
    const check = (row: FileRow): void => {
      if (row.complete) throw invalid(`file ${id} is complete: derived files can be added only before its content is set`)
      if (row.derived[key]) throw invalid(`derived file ${key} exists already; derived files are immutable`)
      if (!THUMBNAIL_KEYS.includes(key) && Object.keys(row.derived).filter((k) => !THUMBNAIL_KEYS.includes(k)).length >= MAX_CUSTOM_DERIVED_FILES)
        throw invalid(`a file may have at most ${MAX_CUSTOM_DERIVED_FILES} custom derived files`)
    }
    check(current)
    await this.checkQuota(current.user_id, [upload])
    const written: string[] = []
    try {
      const stored = await this.storeDerived(upload, written)
      return await this.store.transact(async (tx) => {
        const row = await tx.files.get(id)
        if (!row) throw notFound(`file ${id} not found`)
        check(row)
        const file = tx.files.put({ ...row, derived: { ...row.derived, [key]: stored } })
        await this.recheckQuota(tx, row.user_id, stored.size)
        tx.emit('file.updated', { file })
        return file
      })
    } catch (err) {
      await this.bytes.remove(written)
      throw err
    }
  }

  /** One file the viewer may read, with how they reached it. Errors: `unauthenticated`, `not_found`. */
  async get(viewer: Viewer, id: number, tokens: FileTokens): Promise<{ file: FileRow; access: FileAccess }> {
    if (!viewer.token && !tokens.file_token) throw required()
    const file = await this.store.read.files.get(id)
    const access = file ? await this.accessOf(viewer, file, tokens) : null
    if (!file || !access) throw notFound(`file ${id} not found`)
    return { file, access }
  }

  /** The viewer's files among `ids`, in that order; others' and unknown ids are left out. Errors: `forbidden`, `invalid` (over 200 ids). */
  async getMany(viewer: Viewer, ids: readonly number[]): Promise<FileRow[]> {
    const user = ownerOf(viewer)
    if (ids.length > MAX_FILE_IDS) throw invalid(`at most ${MAX_FILE_IDS} ids are allowed`)
    return (await this.store.read.files.getMany(ids)).filter((f) => f.user_id === user.id)
  }

  /** The viewer's files, newest first, filtered by the file general parameters. Errors: `forbidden`. */
  async list(viewer: Viewer, page: PageQuery, filter: FileListFilter = {}): Promise<Page<FileRow>> {
    const user = ownerOf(viewer)
    const r = this.store.read.files
    const types = filter.file_types && filter.file_types.length > 0 ? new Set(filter.file_types) : null
    return paginate(
      page,
      (range) => r.ids('user', user.id, range),
      (ids) => r.getMany(ids).then((rows) => alignRows(ids, rows)),
      (f) => (filter.include_incomplete !== false || f.complete) && (filter.include_private !== false || f.public) && (!types || types.has(f.type)),
    )
  }

  /** Annotations with their replacement values resolved, as the file's owner wrote them. */
  private async replaced<T>(annotations: T, userId: number, publicParent: boolean): Promise<T> {
    if (annotations === undefined || !this.replacer) return annotations
    return (await this.replacer.replace(annotations, { userId, publicParent })) as T
  }

  /**
   * Changes the name, public flag or annotations (merged type by type) of a
   * file. Errors: `not_found`, `forbidden`, `invalid`. Emits `file.updated`.
   */
  async update(viewer: Viewer, id: number, tokens: FileTokens, changes: FileChanges): Promise<FileRow> {
    const name = checkFileName(changes.name)
    const isPublic = checkPublic(changes.public)
    const current = await this.writable(viewer, id, tokens)
    const given = await this.replaced(changes.annotations, current.user_id, isPublic ?? current.public)
    return this.store.transact(async (tx) => {
      const row = await tx.files.get(id)
      if (!row) throw notFound(`file ${id} not found`)
      const file = tx.files.put({
        ...row,
        ...(changes.name === undefined ? {} : { name }),
        ...(isPublic === undefined ? {} : { public: isPublic }),
        annotations: given === undefined ? row.annotations : mergeAnnotations(row.annotations, given),
      })
      if (file.name === undefined) delete file.name
      tx.emit('file.updated', { file })
      return file
    })
  }

  /**
   * Keeps a copy of another server's media for remote account `owner`: a
   * complete file, public when its post is (thumbnails made for an image),
   * typed by its bytes (a decoded image is its own type; anything else keeps
   * the type its server gave only when that type is inert, see
   * file-delivery.ts). Bound by `max_file_size`, not by the owner's storage:
   * the media cache bounds these (see `removeRemote`). Answers the row and
   * its write token. Emits `file.created`.
   */
  keepRemote(owner: UserRow, upload: Upload, from: { url: string; public: boolean }): Promise<{ file: FileRow; file_token: string }> {
    return this.consuming([upload], async () => {
      if (!owner.remote) throw invalid('only a remote account has media kept from another server')
      const image = await imageInfoOf(upload.path)
      const mime = image?.mime_type ?? inertType(upload.mime_type)
      const written: string[] = []
      const derived: Record<string, DerivedFileRow> = {}
      const root = await this.removingOnFailure(written, () => this.storeRoot({ ...upload, mime_type: mime }, derived, written))
      const name = remoteFileName(from.url)
      return this.insertFile(
        {
          user_id: owner.id,
          app_id: 0,
          type: REMOTE_MEDIA_TYPE,
          kind: guessKind(mime),
          ...(name === undefined ? {} : { name }),
          public: from.public,
          complete: true,
          content: root,
          derived,
          annotations: [],
          created_at: isoNow(),
          remote: { url: from.url },
        },
        written,
      )
    })
  }

  /** Deletes a kept copy of remote media (pruned from the cache, or its post deleted) and its bytes; answers whether there was one. Emits `file.deleted`. */
  async removeRemote(id: number): Promise<boolean> {
    const file = await this.store.transact(async (tx) => {
      const row = await tx.files.get(id)
      if (!row?.remote) return null
      tx.files.remove(id)
      tx.emit('file.deleted', { file: row })
      return row
    })
    if (file) await this.bytes.remove(storedNames(file)).catch(() => undefined)
    return file !== null
  }

  /** Deletes a file and its bytes; answers the row as it was. Errors: `not_found`, `forbidden`. Emits `file.deleted`. */
  async remove(viewer: Viewer, id: number, tokens: FileTokens): Promise<FileRow> {
    await this.writable(viewer, id, tokens)
    const file = await this.store.transact(async (tx) => {
      const row = await tx.files.get(id)
      if (!row) throw notFound(`file ${id} not found`)
      tx.files.remove(id)
      tx.emit('file.deleted', { file: row })
      return row
    })
    // The row is durable without them; a failure only leaves litter the next sweep takes.
    await this.bytes.remove(storedNames(file)).catch(() => undefined)
    return file
  }

  /**
   * The content of `key` (the root when `undefined`) a viewer may read, or
   * `null` while the file is incomplete (derived files are readable only
   * once complete). Errors: `unauthenticated`, `not_found`.
   */
  async contentFor(viewer: Viewer, id: number, tokens: FileTokens, key?: string): Promise<{ file: FileRow; signed: SignedContent } | null> {
    const { file } = await this.get(viewer, id, tokens)
    if (!file.complete) return null
    const signed = this.links.signContent(file, key)
    if (!signed) throw notFound(`file ${id} has no derived file ${key}`)
    return { file, signed }
  }

  /** The public file a short code stands for, or `null`. */
  async byShortCode(code: string): Promise<FileRow | null> {
    const id = this.links.idOfShortCode(code)
    const file = id === null ? null : await this.store.read.files.get(id)
    return file?.public && file.complete ? file : null
  }

  /**
   * The bytes a signed content URL points at, with how to hand them out
   * (inline only for an image svc decoded). Errors: `not_found` (unknown,
   * deleted, expired or forged).
   */
  async openSigned(id: number, key: string | undefined, signed: SignedContent): Promise<FileContent> {
    const file = await this.store.read.files.get(id)
    if (!file || !this.links.checkContent(file, key, signed)) throw notFound('this file address is unknown or has expired')
    const content = (key === undefined ? file.content : file.derived[key]) as StoredContent
    const path = this.bytes.pathOf(content.stored) as string
    const name = key === undefined ? file.name : derivedName(file, key)
    return { path, mime_type: content.mime_type, size: content.size, ...(name === undefined ? {} : { name }), ...(await deliveryOf(content, path)) }
  }

  /** Deletes byte files no row points at and every unfinished upload; answers how many byte files went. */
  async sweepOrphans(): Promise<number> {
    const referenced = new Set<string>()
    await visitRows(this.store.read.files, (file) => {
      for (const name of storedNames(file)) referenced.add(name)
    })
    return this.bytes.sweep(referenced)
  }

  /**
   * Runs `work` on uploads handed to the service, which owns them from then
   * on: whatever `work` did not adopt (all of them when it failed) is removed.
   */
  private async consuming<T>(uploads: readonly (Upload | undefined)[], work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } finally {
      await this.bytes.removeUploads(uploads.flatMap((u) => (u ? [u.path] : [])))
    }
  }

  /** Removes stale temporary uploads every minute once the domain has started (see `FileBytes.sweepStaleUploads`). */
  startSweeping(): void {
    this.sweeper ??= setInterval(() => void this.bytes.sweepStaleUploads(STALE_UPLOAD_MS).catch(() => undefined), UPLOAD_SWEEP_EVERY_MS)
    this.sweeper.unref()
  }

  stopSweeping(): void {
    if (this.sweeper) clearInterval(this.sweeper)
    this.sweeper = null
  }

  /** How `viewer` reaches `file`, or `null` when they do not. */
  private async accessOf(viewer: Viewer, file: FileRow, tokens: FileTokens): Promise<FileAccess | null> {
    if (isOwner(viewer, file) && hasScope(viewer, 'files')) return 'owner'
    const token = tokens.file_token
    if (!token) return null
    // A write token works for its owner's authenticated calls only, whatever the app.
    if (isOwner(viewer, file) && hashSecret(token) === file.token_hash) return 'write_token'
    const grant = this.links.grantOf(file, token)
    return grant && (await this.grantHolds(viewer, file, grant)) ? 'read_token' : null
  }

  /** Does `grant` still let `viewer` read `file`? A file grants itself while it is public, another file while it is public and attaches it. */
  private async grantHolds(viewer: Viewer, file: FileRow, grant: Grant): Promise<boolean> {
    if (grant.kind !== 'f') return (await this.grants?.holds(viewer, grant, file.id)) ?? false
    if (grant.id === file.id) return file.public
    const granting = await this.store.read.files.get(grant.id)
    return Boolean(granting?.public && this.grants?.carries(granting.annotations, file.id))
  }

  /** The file, when the viewer may change it (owner with `files`, or its write token). */
  private async writable(viewer: Viewer, id: number, tokens: FileTokens): Promise<FileRow> {
    const { file, access } = await this.get(viewer, id, tokens)
    if (access === 'read_token') throw forbidden('a read token only reads a file')
    return file
  }

  /** Errors: `quota` when a byte file is over `max_file_size`, or the user's storage would be exceeded. */
  private async checkQuota(userId: number, uploads: readonly (Upload | undefined)[]): Promise<void> {
    let adding = 0
    for (const upload of uploads) {
      if (!upload) continue
      const size = await this.bytes.sizeOf(upload.path)
      if (size > this.limits.max_file_size) throw quota(`files may be at most ${this.limits.max_file_size} bytes`)
      adding += size
    }
    const used = await this.usedBy(userId)
    if (used + adding > this.limits.storage) throw quota(`not enough storage: ${Math.max(0, this.limits.storage - used)} of ${this.limits.storage} bytes left`)
  }

  /**
   * Inside the transaction that adds `adding` bytes (thumbnails included):
   * concurrent uploads each passed the early check, and only one may take the
   * last of the storage. Reads see the state before this transaction's writes.
   * Errors: `quota`.
   */
  private async recheckQuota(tx: Tx, userId: number, adding: number): Promise<void> {
    const used = await this.usedBy(userId, tx.files)
    if (used + adding > this.limits.storage) throw quota(`not enough storage: ${Math.max(0, this.limits.storage - used)} of ${this.limits.storage} bytes left`)
  }

  private async storeDerived(upload: DerivedUpload, written: string[]): Promise<DerivedFileRow> {
    const info = await imageInfoOf(upload.path)
    const problem = thumbnailProblem(upload.key, info)
    if (problem) throw invalid(problem)
    const name = checkFileName(upload.filename)
    const stored = await this.bytes.adopt(upload.path)
    written.push(stored.stored)
    return { mime_type: upload.mime_type, ...stored, ...(info ? { image_info: { width: info.width, height: info.height } } : {}), ...(name ? { name } : {}) }
  }

  /** Stores the root content; for an image, adds the thumbnails the client did not supply to `derived`. */
  private async storeRoot(upload: Upload, derived: Record<string, DerivedFileRow>, written: string[]): Promise<StoredContent> {
    const info = await imageInfoOf(upload.path)
    if (info) {
      for (const key of THUMBNAIL_KEYS) {
        if (derived[key]) continue
        const thumb = await makeThumbnail(upload.path, key, info.mime_type)
        const stored = await this.bytes.write(thumb.data)
        written.push(stored.stored)
        derived[key] = { mime_type: thumb.mime_type, image_info: thumb.image_info, ...stored }
      }
    }
    const stored = await this.bytes.adopt(upload.path)
    written.push(stored.stored)
    return { mime_type: upload.mime_type, ...stored, ...(info ? { image_info: { width: info.width, height: info.height } } : {}) }
  }
}

/** The byte files of `file` (its content and derived files) in the files folder. */
export const storedNames = (file: FileRow): string[] => [...(file.content ? [file.content.stored] : []), ...Object.values(file.derived).map((d) => d.stored)]

const alignRows = (ids: readonly number[], rows: readonly FileRow[]): (FileRow | null)[] => {
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids.map((id) => byId.get(id) ?? null)
}

/** The last segment of a remote file's address as its name, when it makes one. */
function remoteFileName(url: string): string | undefined {
  const last = new URL(url).pathname.split('/').pop() ?? ''
  return /^[A-Za-z0-9._-]{1,100}$/.test(last) ? last : undefined
}

function checkPublic(value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined
  if (value === true || value === 'true' || value === '1' || value === 1) return true
  if (value === false || value === 'false' || value === '0' || value === 0) return false
  throw invalid('public must be true or false')
}

const required = (): DomainError =>
  new DomainError('unauthenticated', 'Call requires authentication: This resource requires authentication and no token was provided.')

/** The user of a token allowed to upload. */
function uploaderOf(viewer: Viewer) {
  if (!viewer.token) throw required()
  if (viewer.token.kind !== 'user' || !viewer.user) throw forbidden('files belong to a user; use a user token')
  if (!UPLOAD_SCOPES.some((s) => hasScope(viewer, s)))
    throw forbidden(`uploading a file requires one of these scopes: ${UPLOAD_SCOPES.join(', ')}`, 'insufficient-scope')
  return viewer.user
}

/** The user of a token with the `files` scope (lists of one's files). */
function ownerOf(viewer: Viewer) {
  if (!viewer.token) throw required()
  if (viewer.token.kind !== 'user' || !viewer.user) throw forbidden('files belong to a user; use a user token')
  if (!hasScope(viewer, 'files')) throw forbidden('This endpoint requires one of these scopes: files', 'insufficient-scope')
  return viewer.user
}
