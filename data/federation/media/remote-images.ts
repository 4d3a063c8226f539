/**
 * Remote accounts' avatars and covers, served by svc: whenever a remote
 * account's row names an image address its copy was not fetched from (a
 * new account, a profile update), the image is fetched (bounded as post
 * media are, within the upload limit of its kind) and kept as a local
 * user's upload is (re-encoded, an avatar cropped square); an address gone
 * drops the copy. Until then, and when it cannot be had, the account shows
 * the default image: clients never load another server's image. Runs on
 * the events, after the row committed, so no lookup waits for an image.
 */
import { readFile } from 'node:fs/promises'
import type { EventLog } from '../../events/event-log.js'
import type { FileService } from '../../files/files.js'
import type { ImageKind } from '../../images/image-rules.js'
import { IMAGE_KINDS, REMOTE_IMAGE_SOURCE } from '../../images/image-rules.js'
import { IMAGE_UPLOAD_LIMITS } from '../../limits.js'
import type { UserRow } from '../../model/user.js'
import type { UserImageService } from '../../users/user-images.js'
import type { MediaBlocks } from '../domain-blocks.js'
import { fetchMedia } from './fetch-media.js'

export class RemoteImages {
  /** Fetches under way, by account, kind and address: an account updated twice at once is fetched once. */
  private readonly inFlight = new Set<string>()
  private readonly running = new Set<Promise<void>>()
  private stopListening: (() => void)[] = []

  constructor(
    private readonly images: UserImageService,
    private readonly files: Pick<FileService, 'receiver' | 'discardUploads'>,
    private readonly blocks: MediaBlocks,
    private readonly options: { readonly allowPrivateAddress: boolean },
  ) {}

  /** Follows the accounts' events from now on. */
  start(events: EventLog): void {
    if (this.stopListening.length > 0) return
    this.stopListening = [events.on('user.created', (e) => this.check(e.payload.user)), events.on('user.updated', (e) => this.check(e.payload.user))]
  }

  /** Stops following the events; resolves once the fetches under way are done. */
  async stop(): Promise<void> {
    for (const stop of this.stopListening.splice(0)) stop()
    await Promise.allSettled([...this.running])
  }

  private check(user: UserRow): void {
    if (!user.remote || user.deleted_at !== undefined) return
    for (const kind of IMAGE_KINDS) {
      const source = user.remote[REMOTE_IMAGE_SOURCE[kind]]
      if (user[kind]?.source === source && (source !== undefined || user[kind] === undefined)) continue
      const key = `${user.id} ${kind} ${source ?? ''}`
      if (this.inFlight.has(key)) continue
      this.inFlight.add(key)
      const run = this.refresh(user, kind, source)
        .catch(() => undefined)
        .finally(() => {
          this.inFlight.delete(key)
          this.running.delete(run)
        })
      this.running.add(run)
    }
  }

  private async refresh(user: UserRow, kind: ImageKind, source: string | undefined): Promise<void> {
    if (source === undefined || this.blocks.rejectsMedia(source) || this.blocks.rejectsMedia(user.remote!.actor_id)) {
      await this.images.keepRemote(user.id, kind, null, source)
      return
    }
    const maxBytes = IMAGE_UPLOAD_LIMITS[kind].maxBytes
    const fetched = await fetchMedia(new URL(source), {
      maxBytes,
      allowPrivateAddress: this.options.allowPrivateAddress,
      receiver: (max) => this.files.receiver(max),
    })
    if (!fetched) return
    try {
      await this.images.keepRemote(user.id, kind, await readFile(fetched.path), source)
    } finally {
      await this.files.discardUploads([fetched.path])
    }
  }
}
