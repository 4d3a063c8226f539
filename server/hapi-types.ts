/** Typing of what svc keeps on hapi's request and route objects. */
import type { Scope, Viewer } from '../data/index.js'
import type { RequestTrust } from './request-trust/trust.js'
import type { UpgradeProbe } from './streams/websocket.js'

/**
 * Which token an endpoint takes (the spec's Token column). `none` still reads
 * a token when one is sent. `varies` (App.net's word) takes no token, but a
 * token sent is held to `any` with the route's scopes: anyone reads what is
 * public, a token reads what it may.
 */
export type TokenKind = 'none' | 'varies' | 'any' | 'user' | 'app'

/** The API objects (server/api/) a route answers, by their type's name. */
export type ApiObjectName =
  | 'AccountEmail'
  | 'AccountSession'
  | 'AppPassword'
  | 'AppStream'
  | 'Channel'
  | 'Config'
  | 'CreatedAppPassword'
  | 'DeletedAccount'
  | 'ExploreStream'
  | 'File'
  | 'Filter'
  | 'Interaction'
  | 'Marker'
  | 'Message'
  | 'PaginatedChannel'
  | 'PaginatedFile'
  | 'PaginatedInteraction'
  | 'PaginatedMessage'
  | 'PaginatedPost'
  | 'PaginatedToken'
  | 'PaginatedUser'
  | 'Place'
  | 'PlaceHit'
  | 'Post'
  | 'ProcessedText'
  | 'SignedOutElsewhere'
  | 'Token'
  | 'TwoFactorChange'
  | 'TwoFactorSetup'
  | 'TwoFactorStatus'
  | 'User'

/**
 * What `data` holds in a route's success answer: an API object, a list of
 * them (`Post[]`; a paginated list's items are `PaginatedPost`, each with
 * its `pagination_id`), ids (`string[]`), a `number`, or a map of ids
 * (`object`).
 */
export type ApiAnswer = ApiObjectName | `${ApiObjectName}[]` | 'string[]' | 'number' | 'object'

export interface SvcRouteConfig {
  token: TokenKind
  /**
   * For the API document: what an enveloped route's success answers in
   * `data`; `false` for one whose success is no envelope (bytes, a
   * redirect, a stream, 204 No Content); several when it depends on the
   * request (a list by ids, or a page). Every API route says (a test checks).
   */
  answer?: ApiAnswer | readonly ApiAnswer[] | false
  /** The token needs at least one of these scopes (user tokens only). */
  scopes?: readonly Scope[]
  /** Leave the route out of rate limiting (avatar and cover redirects, image files, the web client's built files). */
  unlimited?: boolean
  /**
   * How the rate limits count the route when it is not the API's usual call:
   * `page`, an HTML page for browsers, counted in the address's page bucket
   * alone (a refusal is a page too); `read`, never a write whatever its
   * method (read markers), so it counts against the token's calls only;
   * `inbox`, another server's activity, counted against that server (the
   * host of the key that signed it), whichever address it comes from;
   * `heavy`, a read that costs what a write does (a whole account's
   * export), counted against the token's write bucket too.
   */
  rateAs?: 'page' | 'read' | 'inbox' | 'heavy'
  /** Served at the root only, not under the API prefix (pages, OAuth, file content, the user stream); set by `mount`. */
  rootOnly?: boolean
  /** Answer as-is, without the JSON envelope (OAuth token endpoint, pages, redirects). */
  raw?: boolean
  /** One of the web client's own addresses (server/routes/web/web-client.ts): what is not one of them belongs to the API or the server's pages. */
  webClient?: boolean
  /** A raw route's own error body (RFC 6749 errors on the token endpoint); `null` falls back to the envelope. */
  errorBody?: (err: unknown) => { status: number; body: object } | null
}

declare module '@hapi/hapi' {
  interface PluginSpecificConfiguration {
    svc?: SvcRouteConfig
  }
  interface PluginsStates {
    svcUpgrade?: UpgradeProbe
  }
  interface ServerApplicationState {
    trust?: RequestTrust
  }
  interface RequestApplicationState {
    viewer?: Viewer
    /** The `error_id` of the error this request was answered with, for the log. */
    errorId?: string
  }
}
