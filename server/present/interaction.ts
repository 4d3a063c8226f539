/** The API shape of an Interaction: `action`, `event_date`, `objects` (Users or Posts) and the acting `users`. */
import type { Interaction, Page, PostRow, UserRow } from '../../data/index.js'
import type { Envelope } from '../envelope.js'
import type { PresentContext } from './context.js'
import { presentPage } from './page.js'
import { presentPosts } from './post.js'
import { presentUsers } from './user.js'

/** Presents rows once each, however many interactions share them. */
async function presentOnce<R extends { id: number }>(rows: R[], present: (rows: R[]) => Promise<Record<string, unknown>[]>): Promise<Map<number, Record<string, unknown>>> {
  const unique = [...new Map(rows.map((r) => [r.id, r])).values()]
  const shaped = await present(unique)
  return new Map(unique.map((r, i) => [r.id, shaped[i]]))
}

async function presentInteractions(ctx: PresentContext, items: Interaction[]): Promise<Record<string, unknown>[]> {
  const posts = items.flatMap((i) => (i.action === 'follow' ? [] : i.objects))
  const users = items.flatMap((i) => [...i.users, ...(i.action === 'follow' ? i.objects : [])])
  const postMap = await presentOnce<PostRow>(posts, (rows) => presentPosts(ctx, rows))
  const userMap = await presentOnce<UserRow>(users, (rows) => presentUsers(ctx, rows))
  return items.map((i) => ({
    action: i.action,
    event_date: i.event_date,
    objects: i.action === 'follow' ? i.objects.map((u) => userMap.get(u.id)) : i.objects.map((p) => postMap.get(p.id)),
    users: i.users.map((u) => userMap.get(u.id)),
  }))
}

export const presentInteractionPage = (ctx: PresentContext, page: Page<Interaction>): Promise<Envelope> => presentPage(page, (items) => presentInteractions(ctx, items))
