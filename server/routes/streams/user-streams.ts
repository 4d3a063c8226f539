/**
 * The user stream at `{stream_url}/stream/user` as chunked HTTP (the
 * WebSocket flavour upgrades the same address, see streams/websocket.ts),
 * and the deletion of streams and subscriptions.
 */
import { PassThrough } from 'node:stream'
import Joi from 'joi'
import type { StreamServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { baseUrlOf } from '../../request-trust/base-url.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'
import { connectQuery, openInputOf } from '../../streams/connect-query.js'
import { ChunkedSink } from '../../streams/stream-sinks.js'
import { UPGRADE_PROBE, type UpgradeProbe } from '../../streams/websocket.js'

const streamParams = { connection_id: Joi.string().max(64).required() }

export const userStreamRoutes = (streams: StreamServices, shared: Shared): SvcRoute[] => [
  {
    method: 'GET',
    path: '/stream/user',
    rootOnly: true,
    svc: { token: 'user', answer: false },
    options: { validate: { query: connectQuery } },
    handler: async (request, h) => {
      const probe = request.plugins[UPGRADE_PROBE] as UpgradeProbe | undefined
      const input = openInputOf(request.query)
      if (probe) {
        // A WebSocket handshake, checked by the same rules (token, rate limit, query, the stream limit); the upgrade itself follows.
        probe.opened = await streams.hub.open(viewerOf(request), input)
        probe.options = input.options
        probe.baseUrl = baseUrlOf(request)
        return ok(null)
      }
      const out = new PassThrough()
      const sink = new ChunkedSink(out, shared.views, baseUrlOf(request), input.options)
      const { connectionId } = await streams.hub.connect(viewerOf(request), input, sink)
      const gone = () => {
        sink.gone()
        void streams.hub.disconnected(connectionId, sink)
      }
      request.raw.req.socket.once('close', gone)
      out.once('close', gone)
      // The headers go out at once, so a client learns its connection id before the first event.
      out.write('\r\n')
      return h.response(out).type('application/json').header('Connection-Id', connectionId).header('Cache-Control', 'no-store')
    },
  },
  {
    method: 'DELETE',
    path: '/users/me/streams/{connection_id}',
    svc: { token: 'user', answer: false },
    options: { validate: { params: Joi.object(streamParams) } },
    handler: async (request, h) => {
      await streams.user.remove(viewerOf(request), request.params.connection_id as string)
      return h.response().code(204)
    },
  },
  {
    method: 'DELETE',
    path: '/users/me/streams/{connection_id}/{subscription_id}',
    svc: { token: 'user', answer: false },
    options: { validate: { params: Joi.object({ ...streamParams, subscription_id: Joi.string().max(64).required() }) } },
    handler: async (request, h) => {
      await streams.user.unsubscribe(viewerOf(request), request.params.connection_id as string, request.params.subscription_id as string)
      return h.response().code(204)
    },
  },
]
