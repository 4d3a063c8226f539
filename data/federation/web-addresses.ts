/**
 * The web addresses ActivityStreams objects point people to: a profile
 * page, a post page, an image. They are the addresses the App.net API hands
 * out (`canonical_url`, `avatar_image.url`), written the way
 * server/present/users/user.ts and server/present/posts/post.ts write them;
 * the federation tests compare the two, so they cannot drift apart.
 */
import type { StoredImage, UserRow } from '../model/user.js'

export const profileAddress = (origin: string, user: UserRow): string => `${origin}/@${user.username}`

export const postAddress = (origin: string, user: UserRow, postId: number): string => `${profileAddress(origin, user)}/post/${postId}`

export const imageAddress = (origin: string, image: StoredImage): string => `${origin}/images/${image.file}`
