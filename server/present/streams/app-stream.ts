/** The App stream resource: its fields, the embedded filter, and the endpoint a consumer connects to. */
import type { AppStreamView } from '../../../data/index.js'
import type { AppStream } from '../../api/index.js'
import type { PresentContext } from '../context.js'
import { presentFilter } from '../filters/filter.js'

/** Where a consumer reads the stream; the path is itself the credential. */
export const appStreamEndpoint = (baseUrl: string, endpointKey: string): string => `${baseUrl}/channel/1/${endpointKey}`

export async function presentAppStream(ctx: PresentContext, { stream, filter, owner, endpointKey }: AppStreamView): Promise<AppStream> {
  const out: AppStream = {
    id: String(stream.id),
    endpoint: appStreamEndpoint(ctx.baseUrl, endpointKey),
    object_types: stream.object_types,
    type: stream.type,
  }
  if (filter) out.filter = await presentFilter(ctx, filter, owner)
  if (stream.key !== undefined) out.key = stream.key
  return out
}

export const presentAppStreams = (ctx: PresentContext, views: readonly AppStreamView[]): Promise<AppStream[]> =>
  Promise.all(views.map((v) => presentAppStream(ctx, v)))
