/**
 * Another server's media, kept here: a remote post's attachments (the
 * Note's `Image`/`Document`/`Video`/`Audio` objects) are fetched once, when
 * the post is kept, and stored as files of the remote author (public for a
 * public post, readable only by those who see it for a followers-only one)
 * through the same machinery as uploads (thumbnails, types by their bytes,
 * downloads for what is not a decoded image), so App.net clients see the
 * annotations they already render (a `svc.core.oembed` photo with its
 * thumbnails, alt text as its `title`; other files in
 * `svc.core.attachments`) and load every byte from svc, never from a third
 * party. What cannot be had within the bounds (size, time, a private
 * address, a server whose media the operator rejects) is left out.
 *
 * The copies form a cache bounded by `federation.media_cache_bytes`: once
 * over it, the oldest copies are removed until it is under. A post whose
 * copy was pruned keeps its annotation, whose addresses then find nothing
 * (its Note's address still leads to the original).
 */
import type { Note } from '@fedify/fedify'
import type { FileService } from '../../files/files.js'
import type { FileRow } from '../../model/file.js'
import type { PostRow } from '../../model/post.js'
import type { UserRow } from '../../model/user.js'
import type { Store } from '../../store/port.js'
import { SCAN_CHUNK, yieldToEventLoop } from '../../store/scan-rows.js'
import { totalSize } from '../../model/file.js'
import type { MediaBlocks } from '../domain-blocks.js'
import { fetchMedia } from './fetch-media.js'

/** Attachments of one Note kept at most (Mastodon shows four). */
const MAX_ATTACHMENTS = 4
/** Alt text kept, in characters. */
const ALT_MAX = 1500

export interface RemoteMediaOptions {
  /** `federation.media_cache_bytes`: 0 keeps no media. */
  cacheBytes: number
  /** `limits.max_file_size`. */
  maxBytes: number
  allowPrivateAddress: boolean
}

interface Attachment {
  url: URL
  alt: string
}

const noFetch = (): Promise<never> => Promise.reject(new Error('not fetched'))

/** The media attachments of `note` with an address of their own, in order. */
async function attachmentsOf(note: Note): Promise<Attachment[]> {
  // Loaded here, not at the top: an instance that never federates never loads Fedify (federation.ts).
  const { Document, Link } = await import('@fedify/fedify')
  const found: Attachment[] = []
  for await (const item of note.getAttachments({ documentLoader: noFetch, suppressError: true })) {
    if (!(item instanceof Document)) continue
    const url = item.url instanceof Link ? item.url.href : item.url
    if (!url) continue
    found.push({ url, alt: (item.name?.toString() ?? '').trim().slice(0, ALT_MAX) })
    if (found.length >= MAX_ATTACHMENTS) break
  }
  return found
}

export class RemoteMedia {
  /** Bytes the copies hold, as last counted plus what was kept since; null until counted. */
  private held: number | null = null
  private pruning: Promise<void> | null = null

  constructor(
    private readonly store: Store,
    private readonly files: FileService,
    private readonly blocks: MediaBlocks,
    private readonly options: RemoteMediaOptions,
  ) {}

  /**
   * Fetches and keeps the media `note` attaches, for a post of `author`
   * (public files for a public post; for a followers-only one, files only
   * those who see the post read); answers the annotations that show them
   * (none when nothing could be had).
   */
  async annotationsFor(note: Note, author: UserRow, audience: 'public' | 'followers'): Promise<unknown[]> {
    if (this.options.cacheBytes === 0 || !author.remote) return []
    const images: unknown[] = []
    const others: unknown[] = []
    for (const { url, alt } of await attachmentsOf(note)) {
      const kept = await this.keep(url, author, audience === 'public')
      if (!kept) continue
      const file = { file_id: String(kept.file.id), file_token: kept.file_token }
      if (kept.file.kind === 'image' && kept.file.content?.image_info)
        images.push({ type: 'svc.core.oembed', value: { '+svc.core.file': { ...file, format: 'oembed' }, ...(alt ? { title: alt } : {}) } })
      else others.push({ ...file, format: 'metadata' })
    }
    void this.pruneWhenOver()
    return others.length === 0 ? images : [...images, { type: 'svc.core.attachments', value: { '+svc.core.file_list': others } }]
  }

  /** Removes the copies `post` (a remote post, deleted) showed: they were its own. */
  async forget(post: PostRow): Promise<void> {
    for (const id of fileIdsOf(post)) {
      const file = await this.store.read.files.get(id)
      if (file?.remote && file.user_id === post.user_id) await this.files.removeRemote(id)
    }
  }

  /** Removes the oldest copies until the cache is within its bound; answers how many went. */
  async prune(): Promise<number> {
    const copies: FileRow[] = []
    const r = this.store.read.files
    for (let since: number | undefined; ;) {
      const ids = await r.ids('remote', 1, { since, limit: SCAN_CHUNK, order: 'asc' })
      copies.push(...(await r.getMany(ids)))
      if (ids.length < SCAN_CHUNK) break
      since = ids[ids.length - 1]
      await yieldToEventLoop()
    }
    let held = copies.reduce((sum, f) => sum + totalSize(f), 0)
    let removed = 0
    for (const file of copies) {
      if (held <= this.options.cacheBytes) break
      if (await this.files.removeRemote(file.id)) removed++
      held -= totalSize(file)
    }
    this.held = held
    return removed
  }

  private async keep(url: URL, author: UserRow, isPublic: boolean): Promise<{ file: FileRow; file_token: string } | null> {
    if (this.blocks.rejectsMedia(url) || this.blocks.rejectsMedia(author.remote!.actor_id)) return null
    const fetched = await fetchMedia(url, {
      maxBytes: this.options.maxBytes,
      allowPrivateAddress: this.options.allowPrivateAddress,
      receiver: (max) => this.files.receiver(max),
    })
    if (!fetched) return null
    try {
      const kept = await this.files.keepRemote(author, { path: fetched.path, mime_type: fetched.contentType }, { url: url.href, public: isPublic })
      if (this.held !== null) this.held += totalSize(kept.file)
      return kept
    } catch {
      return null
    }
  }

  /** Prunes, one run at a time, once the copies may be over the bound. */
  private pruneWhenOver(): Promise<void> {
    if (this.held !== null && this.held <= this.options.cacheBytes) return Promise.resolve()
    this.pruning ??= this.prune()
      .catch((err: unknown) => process.emitWarning(`svc: pruning the remote media cache failed: ${(err as Error).message}`))
      .then(() => undefined)
      .finally(() => (this.pruning = null))
    return this.pruning
  }
}

/** The file ids a post's annotations name (`file_id` anywhere in their values). */
function fileIdsOf(post: PostRow): number[] {
  const ids = new Set<number>()
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk)
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) {
        if (k === 'file_id' && typeof v === 'string' && /^\d{1,15}$/.test(v)) ids.add(Number(v))
        else walk(v)
      }
  }
  walk(post.annotations)
  return [...ids]
}
