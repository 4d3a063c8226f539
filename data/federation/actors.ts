/**
 * A local user as an ActivityPub actor: a `Person`, a bot a `Service`, a
 * feed an `Application`, with what Mastodon shows of a profile (name, the
 * description's html as the API renders it, avatar, cover, profile page)
 * and where to reach it (inbox, shared inbox, outbox, followers, following),
 * its public keys, and nothing else of the account.
 */
import { Application, Endpoints, Image, Person, Service, type Context } from '@fedify/fedify'
import { Temporal } from '@js-temporal/polyfill'
import { imageOf } from '../images/image-rules.js'
import type { UserRow } from '../model/user.js'
import { renderHtml } from '../text/html.js'
import { imageAddress, profileAddress } from './web-addresses.js'

const ACTOR_TYPES = { human: Person, bot: Service, feed: Application } as const

/** An image of the user's, with its type, as the API links it (a default one too, as the API shows it). */
function imageOfUser(origin: string, user: UserRow, kind: 'avatar' | 'cover'): Image {
  const image = imageOf(user, kind)
  return new Image({ url: new URL(imageAddress(origin, image)), mediaType: image.mime })
}

/** The actor document of `user` (live, not moderated: the caller checks). */
export async function actorOf(ctx: Context<void>, origin: string, user: UserRow): Promise<Person | Service | Application> {
  const identifier = String(user.id)
  const keys = await ctx.getActorKeyPairs(identifier)
  const Actor = ACTOR_TYPES[user.type]
  return new Actor({
    id: ctx.getActorUri(identifier),
    preferredUsername: user.username,
    name: user.name,
    summary: renderHtml(user.description.text, user.description.entities),
    url: new URL(profileAddress(origin, user)),
    icon: imageOfUser(origin, user, 'avatar'),
    image: imageOfUser(origin, user, 'cover'),
    published: Temporal.Instant.from(user.created_at),
    inbox: ctx.getInboxUri(identifier),
    outbox: ctx.getOutboxUri(identifier),
    followers: ctx.getFollowersUri(identifier),
    following: ctx.getFollowingUri(identifier),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    // App.net follows need no approval.
    manuallyApprovesFollowers: false,
    discoverable: true,
    // The RSA key is the one draft-cavage signatures name; every key signs Object Integrity Proofs.
    publicKey: keys[0]?.cryptographicKey,
    assertionMethods: keys.map((k) => k.multikey),
  })
}
