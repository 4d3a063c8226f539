/** What every presenter needs to know about the request it answers. */
import type { Request } from '@hapi/hapi'
import type { DomainViews, Touch, Viewer } from '../../data/index.js'
import { viewerOf } from '../auth.js'
import { baseUrlOf } from '../request-trust/base-url.js'

export interface PresentOptions {
  include_annotations?: boolean
  include_user_annotations?: boolean
  include_post_annotations?: boolean
  include_channel_annotations?: boolean
  include_message_annotations?: boolean
  include_html?: boolean
  include_starred_by?: boolean
  include_reposters?: boolean
  include_recent_message?: boolean
  include_marker?: boolean
}

export interface PresentContext {
  /** The domain's view services: presenters read what they show through these and nothing else. */
  views: DomainViews
  viewer: Viewer
  /** Public address of the server, without a trailing slash. */
  baseUrl: string
  options: PresentOptions
  /** Presenting a stream event: no file tokens (the spec's Authentication rule 4). */
  streamed?: boolean
  /**
   * Set when the answer may be kept (answer-cache.ts): presenters add what
   * they show, or set it to null when the answer must not be kept.
   */
  reads?: Touch[] | null
}

export const contextOf = (request: Request, views: DomainViews): PresentContext => ({
  views,
  viewer: viewerOf(request),
  baseUrl: baseUrlOf(request),
  options: request.query as PresentOptions,
})
