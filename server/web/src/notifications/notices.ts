/**
 * Notifications as one list: mentions (posts) and interactions (follows,
 * stars, reposts, replies), newest first, each unread when it is past the
 * reader's stream marker of its own list: `mentions:<id>` by post id,
 * `interactions` by pagination id.
 */
import type { Interaction, Paginated, Post } from '../../../api'

export type Notice =
  | { kind: 'mention'; key: string; at: number; unread: boolean; post: Post }
  | { kind: 'interaction'; key: string; at: number; unread: boolean; interaction: Paginated<Interaction> }

/** How far the reader has read each list: the `last_read_id` of its marker (0 while never set). */
export interface ReadUpTo {
  mentions: number
  interactions: number
}

/** The actions notifications show (broadcast channels have their own screens). */
export const NOTICE_ACTIONS = 'follow,star,repost,reply'

/** A reply that mentions the reader too is shown once, as the mention, which holds the reply's words. */
function shownAsMention(i: Interaction, mentions: Post[]): boolean {
  if (i.action !== 'reply') return false
  const replied = new Set(i.objects.map((o) => o.id))
  return i.users.every((u) => mentions.some((m) => m.user?.id === u.id && m.reply_to !== undefined && replied.has(m.reply_to)))
}

export function noticesOf(mentions: Post[], interactions: Paginated<Interaction>[], read: ReadUpTo): Notice[] {
  const shownMentions = mentions.filter((p) => !p.is_deleted)
  const notices: Notice[] = [
    ...shownMentions.map((post): Notice => ({
      kind: 'mention',
      key: `m${post.id}`,
      at: Date.parse(post.created_at),
      unread: Number(post.id) > read.mentions,
      post,
    })),
    ...interactions
      .filter((i) => !shownAsMention(i, shownMentions))
      .map((interaction): Notice => ({
        kind: 'interaction',
        key: `i${interaction.pagination_id}`,
        at: Date.parse(interaction.event_date),
        unread: Number(interaction.pagination_id) > read.interactions,
        interaction,
      })),
  ]
  return notices.sort((a, b) => b.at - a.at)
}

/** "@bob and @carol" */
const names = (users: { username: string }[]): string =>
  users.length <= 1
    ? `@${users[0]?.username ?? 'someone'}`
    : `${users
        .slice(0, -1)
        .map((u) => `@${u.username}`)
        .join(', ')} and @${users[users.length - 1].username}`

/** A notice in one line and a short body, for a desktop notification. */
export function describe(notice: Notice, verbs: Record<string, string>): { title: string; body: string } {
  if (notice.kind === 'mention') return { title: `@${notice.post.user?.username ?? 'someone'} mentioned you`, body: notice.post.text ?? '' }
  const { interaction } = notice
  const post = interaction.objects[0] as Post | undefined
  return { title: `${names(interaction.users)} ${verbs[interaction.action] ?? ''}`.trim(), body: interaction.action === 'follow' ? '' : (post?.text ?? '') }
}
