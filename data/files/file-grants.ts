/**
 * Whether the object a read token names still grants reading (the spec's
 * Authentication rule 4): it exists, is not deleted, and the caller may see
 * it. The services that answer those reads decide; nothing here repeats
 * their visibility rules.
 */
import type { ChannelService } from '../channels/channels.js'
import type { MessageService } from '../channels/messages.js'
import type { PostService } from '../posts/posts.js'
import type { UserService } from '../users/users.js'
import type { Viewer } from '../viewer.js'
import type { Grant } from './file-links.js'

/** What FileService asks about the objects that grant read tokens (a file's own `f` grant it answers itself). */
export interface GrantChecker {
  holds(viewer: Viewer, grant: Grant): Promise<boolean>
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
  ) {}

  holds(viewer: Viewer, grant: Grant): Promise<boolean> {
    const { posts, messages, channels, users } = this.services
    return quietly(async () => {
      switch (grant.kind) {
        case 'p':
          return !(await posts.find(viewer, grant.id)).is_deleted
        case 'm': {
          const [message] = await messages.getMany(viewer, [grant.id])
          return Boolean(message && !message.is_deleted)
        }
        case 'c':
          // A deactivated channel is what deleting one leaves: it grants nothing any more.
          return !(await channels.get(viewer, grant.id)).is_inactive
        case 'u':
          return (await users.find(grant.id, viewer)) !== null
        case 'f':
          return false
      }
    })
  }
}
