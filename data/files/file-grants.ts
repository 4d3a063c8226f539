/**
 * Whether the object a read token names still grants reading (the spec's
 * Authentication rule 4): it exists, is not deleted, the caller may see it,
 * and its annotations still attach the file (a profile or a channel that
 * drops a file, or swaps it for another, stops handing it out). The
 * services that answer those reads decide visibility; nothing here repeats
 * their rules.
 */
import type { AnnotationRenderer } from '../annotations/rendering.js'
import type { ChannelService } from '../channels/channels.js'
import type { MessageService } from '../channels/messages.js'
import type { PostService } from '../posts/posts.js'
import type { UserService } from '../users/users.js'
import type { Viewer } from '../viewer.js'
import type { Grant } from '../security/file-links.js'

/** What FileService asks about the objects that grant read tokens (a file's own `f` grant it answers itself). */
export interface GrantChecker {
  /** Does `grant` still let `viewer` read the file `fileId`? */
  holds(viewer: Viewer, grant: Grant, fileId: number): Promise<boolean>
  /** Do `annotations` (as stored) still attach the file `fileId`? */
  carries(annotations: unknown, fileId: number): boolean
}

/** Refusals (`not_found` and the like) mean the grant does not hold. */
const quietly = async (check: () => Promise<boolean>): Promise<boolean> => {
  try {
    return await check()
  } catch {
    return false
  }
}

export class GrantObjects implements GrantChecker {
  constructor(
    private readonly services: {
      posts: Pick<PostService, 'find'>
      messages: Pick<MessageService, 'getMany'>
      channels: Pick<ChannelService, 'get'>
      users: Pick<UserService, 'find'>
    },
    private readonly marks: Pick<AnnotationRenderer, 'carries'>,
  ) {}

  carries(annotations: unknown, fileId: number): boolean {
    return this.marks.carries(annotations, fileId)
  }

  holds(viewer: Viewer, grant: Grant, fileId: number): Promise<boolean> {
    const { posts, messages, channels, users } = this.services
    const attaches = (object: { annotations: unknown } | null | undefined): boolean => Boolean(object && this.carries(object.annotations, fileId))
    return quietly(async () => {
      switch (grant.kind) {
        case 'p': {
          const post = await posts.find(viewer, grant.id)
          return !post.is_deleted && attaches(post)
        }
        case 'm': {
          const [message] = await messages.getMany(viewer, [grant.id])
          return Boolean(message && !message.is_deleted) && attaches(message)
        }
        case 'c': {
          // A deactivated channel is what deleting one leaves: it grants nothing any more.
          const channel = await channels.get(viewer, grant.id)
          return !channel.is_inactive && attaches(channel)
        }
        case 'u':
          return attaches(await users.find(grant.id, viewer))
        case 'f':
          return false
      }
    })
  }
}
