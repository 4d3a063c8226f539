/** Typing of what svc keeps on hapi's request and route objects. */
import type { Scope, Viewer } from '../data/index.js'
import type { UpgradeProbe } from './streams/websocket.js'

/** Which token an endpoint takes (the spec's Token column). `none` still reads a token when one is sent. */
export type TokenKind = 'none' | 'any' | 'user' | 'app'

export interface SvcRouteConfig {
  token: TokenKind
  /** The token needs at least one of these scopes (user tokens only). */
  scopes?: readonly Scope[]
  /** Leave the route out of rate limiting (avatar and cover redirects, image files). */
  unlimited?: boolean
  /** Answer as-is, without the JSON envelope (OAuth token endpoint, pages, redirects). */
  raw?: boolean
  /** A raw route's own error body (RFC 6749 errors on the token endpoint); `null` falls back to the envelope. */
  errorBody?: (err: unknown) => { status: number; body: Record<string, unknown> } | null
}

declare module '@hapi/hapi' {
  interface PluginSpecificConfiguration {
    svc?: SvcRouteConfig
  }
  interface PluginsStates {
    svcUpgrade?: UpgradeProbe
  }
  interface RequestApplicationState {
    viewer?: Viewer
  }
}
