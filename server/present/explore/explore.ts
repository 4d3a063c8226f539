/** The API shape of an Explore stream, and of its page of posts. */
import type { ExplorePosts, ExploreStreamRow } from '../../../data/index.js'
import type { ExploreStream } from '../../api/index.js'
import type { Envelope } from '../../envelope.js'
import type { PresentContext } from '../context.js'
import { presentMarker } from '../channels/marker.js'
import { presentPage } from '../page.js'
import { presentPosts } from '../posts/post.js'

export const presentExploreStream = (ctx: PresentContext, stream: ExploreStreamRow): ExploreStream => ({
  slug: stream.slug,
  title: stream.title,
  description: stream.description,
  url: `${ctx.baseUrl}/stream/0/posts/stream/explore/${stream.slug}`,
})

/** Paginated posts with `meta.marker` and `meta.explore_stream`. */
export const presentExplorePosts = (ctx: PresentContext, list: ExplorePosts): Promise<Envelope> =>
  presentPage(list.page, (rows) => presentPosts(ctx, rows), {
    marker: presentMarker(list.marker.name, list.marker.row),
    explore_stream: presentExploreStream(ctx, list.stream),
  })
