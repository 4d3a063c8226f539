/** The objects as items of a paginated list (each with its `pagination_id`), by name, for the API document's answers. */
import type { Channel } from './channel.js'
import type { Paginated } from './envelope.js'
import type { File } from './file.js'
import type { Interaction } from './interaction.js'
import type { Message } from './message.js'
import type { Post } from './post.js'
import type { Token } from './token.js'
import type { User } from './user.js'

export type PaginatedChannel = Paginated<Channel>
export type PaginatedFile = Paginated<File>
export type PaginatedInteraction = Paginated<Interaction>
export type PaginatedMessage = Paginated<Message>
export type PaginatedPost = Paginated<Post>
export type PaginatedToken = Paginated<Token>
export type PaginatedUser = Paginated<User>
