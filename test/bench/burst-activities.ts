/**
 * The activities one remote server sends in a burst, written as Misskey
 * writes them and signed beforehand (so that sending them costs the bench
 * next to nothing): Creates of Notes mentioning local users (kept as
 * posts), Likes and Announces of local posts (stars, reposts), Deletes of
 * Notes the server sent before the burst. Each kind is one user's job on
 * every server, so each remote account's counts only grow (or, the
 * deleter's, only shrink) and say when the burst has all been processed.
 */
import { createOf, MISSKEY_CONTEXT, PUBLIC, signPost, type PeerActor, type SignedPost } from '../fixtures/misskey-peer.js'

export type Kind = 'Create' | 'Like' | 'Announce' | 'Delete'

/** The shares of the burst by kind, in the order a server's kinds are laid out. */
const MIX: [Kind, number][] = [
  ['Create', 0.6],
  ['Like', 0.2],
  ['Announce', 0.1],
  ['Delete', 0.1],
]

/** The users of each remote server, by what they do: two create, one likes, one announces, one deletes. */
export const CREATORS = ['u0', 'u1']
export const LIKER = 'u2'
export const ANNOUNCER = 'u3'
export const DELETER = 'u4'
export const REMOTE_NAMES = [...CREATORS, LIKER, ANNOUNCER, DELETER]

/** How many activities of each kind one server sends. */
export type ServerPlan = Record<Kind, number>

/** `perServer` activities split by the mix; a server likes and announces no more local posts than there are (`localPosts`). */
export function planOf(perServer: number, localPosts: number): ServerPlan {
  const plan = Object.fromEntries(MIX.map(([kind, share]) => [kind, Math.floor(perServer * share)])) as ServerPlan
  plan.Like = Math.min(plan.Like, localPosts)
  plan.Announce = Math.min(plan.Announce, localPosts)
  plan.Create = perServer - plan.Like - plan.Announce - plan.Delete
  return plan
}

/** What each remote user's counts are once its server's burst has been processed. */
export function countsAfter(plan: ServerPlan): Record<string, { posts: number; stars: number }> {
  const creates = (k: number) => Math.floor(plan.Create / CREATORS.length) + (k < plan.Create % CREATORS.length ? 1 : 0)
  return {
    ...Object.fromEntries(CREATORS.map((name, k) => [name, { posts: creates(k), stars: 0 }])),
    [LIKER]: { posts: 0, stars: plan.Like },
    [ANNOUNCER]: { posts: plan.Announce, stars: 0 },
    [DELETER]: { posts: 0, stars: 0 },
  }
}

/** The local side: its origin, the users the Creates mention, the posts liked and announced. */
export interface LocalSide {
  site: string
  users: { id: number; username: string }[]
  posts: { id: number; userId: number }[]
}

const actorUri = (local: LocalSide, userId: number) => `${local.site}/ap/users/${userId}`

/** The Create of `actor`'s Note `name`, mentioning local user `to`, as Misskey sends one. */
export function mentioningCreate(local: LocalSide, actor: PeerActor, name: string, to: LocalSide['users'][number]): Record<string, unknown> {
  const host = new URL(local.site).host
  const note = {
    id: `${new URL(actor.id).origin}/notes/${actor.username}-${name}`,
    type: 'Note',
    attributedTo: actor.id,
    content: `<p><a href="${local.site}/@${to.username}" class="u-url mention">@${to.username}@${host}</a> ${name} from afar</p>`,
    published: new Date().toISOString(),
    to: [PUBLIC],
    cc: [actor.document.followers, actorUri(local, to.id)],
    tag: [{ type: 'Mention', href: actorUri(local, to.id), name: `@${to.username}@${host}` }],
  }
  return createOf(note)
}

/** The name of the `k`th Note the deleter of a server posts before the burst (and deletes in it). */
export const doomedName = (k: number) => `doomed-${k}`

/** Lays `plan`'s activities out evenly: the `j`th of `c` of a kind stands at (j + ½) / c of the way. */
function interleaved(plan: ServerPlan): { kind: Kind; k: number }[] {
  const items = MIX.flatMap(([kind]) => Array.from({ length: plan[kind] }, (_, k) => ({ kind, k, at: (k + 0.5) / plan[kind] })))
  return items.sort((a, b) => a.at - b.at).map(({ kind, k }) => ({ kind, k }))
}

/** One activity of server number `server`'s burst, by the user whose job its kind is. */
function activityOf(server: number, actors: Record<string, PeerActor>, local: LocalSide, kind: Kind, k: number): { actor: PeerActor; activity: object } {
  const origin = (a: PeerActor) => new URL(a.id).origin
  // Each server starts at its own place in the local posts and users, so every one of them gets its share.
  const post = (step: number) => local.posts[(server * step + k) % local.posts.length]
  const noteUri = (p: LocalSide['posts'][number]) => `${local.site}/ap/posts/${p.id}`
  switch (kind) {
    case 'Create': {
      const actor = actors[CREATORS[k % CREATORS.length]]
      return { actor, activity: mentioningCreate(local, actor, `burst-${k}`, local.users[(server + k) % local.users.length]) }
    }
    case 'Like': {
      const actor = actors[LIKER]
      return { actor, activity: { '@context': MISSKEY_CONTEXT, id: `${origin(actor)}/likes/${k}`, type: 'Like', actor: actor.id, object: noteUri(post(7)) } }
    }
    case 'Announce': {
      const actor = actors[ANNOUNCER]
      const liked = post(13)
      const announce = {
        '@context': MISSKEY_CONTEXT,
        id: `${origin(actor)}/notes/renote-${k}/activity`,
        type: 'Announce',
        actor: actor.id,
        published: new Date().toISOString(),
        to: [PUBLIC],
        cc: [actorUri(local, liked.userId), actor.document.followers],
        object: noteUri(liked),
      }
      return { actor, activity: announce }
    }
    case 'Delete': {
      const actor = actors[DELETER]
      const note = `${origin(actor)}/notes/${actor.username}-${doomedName(k)}`
      return {
        actor,
        activity: {
          '@context': MISSKEY_CONTEXT,
          id: `${origin(actor)}/deletes/${k}`,
          type: 'Delete',
          actor: actor.id,
          object: { id: note, type: 'Tombstone' },
        },
      }
    }
  }
}

/** Server number `server`'s burst to `inbox`, signed, in the order it sends it, with each activity's kind and a new signature of it (for a retry, signed anew as servers do). */
export async function signedBurst(
  server: number,
  actors: Record<string, PeerActor>,
  plan: ServerPlan,
  local: LocalSide,
  inbox: string,
): Promise<{ kind: Kind; post: SignedPost; resign: () => Promise<SignedPost> }[]> {
  const out: { kind: Kind; post: SignedPost; resign: () => Promise<SignedPost> }[] = []
  for (const { kind, k } of interleaved(plan)) {
    const { actor, activity } = activityOf(server, actors, local, kind, k)
    const resign = () => signPost(actor.keyId, actor.privateKeyPem, inbox, activity)
    out.push({ kind, post: await resign(), resign })
  }
  return out
}
