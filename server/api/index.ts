/**
 * The API's objects as they travel: what the presenters must produce, what
 * the web client reads (type-only imports: nothing of the server reaches
 * the browser) and what the tests' calls answer. Types only, no code; this
 * folder imports nothing outside itself.
 */
export type * from './account.js'
export type * from './annotation.js'
export type * from './channel.js'
export type * from './config.js'
export type * from './entities.js'
export type * from './envelope.js'
export type * from './explore.js'
export type * from './file.js'
export type * from './filter.js'
export type * from './interaction.js'
export type * from './marker.js'
export type * from './message.js'
export type * from './place.js'
export type * from './post.js'
export type * from './source.js'
export type * from './stream.js'
export type * from './text.js'
export type * from './token.js'
export type * from './user.js'
