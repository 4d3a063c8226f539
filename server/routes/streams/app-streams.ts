/**
 * App streams: their management with an app token (`/streams`), and their
 * consumption at each stream's `endpoint`, a chunked answer whose URL is the
 * credential (a bearer token of the stream's app is accepted as well).
 */
import { PassThrough } from 'node:stream'
import Joi from 'joi'
import { anonymous, DomainError, notFound, type AppStreamInput, type StreamServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, flag, idParam, listParam } from '../../params.js'
import { baseUrlOf } from '../../request-trust/base-url.js'
import { contextOf } from '../../present/context.js'
import { presentAppStream, presentAppStreams } from '../../present/streams/app-stream.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'
import { AppChunkedSink } from '../../streams/app-stream-sink.js'

const streamBody = Joi.object({
  // Named one by one, as a JSON list, repeated, or comma separated; the domain names any it does not know.
  object_types: listParam(Joi.string().max(200)),
  type: Joi.string().valid('long_poll'),
  filter_id: Joi.alternatives(
    Joi.string()
      .pattern(/^\d{1,15}$/)
      .allow(''),
    Joi.number().integer().min(1),
  ).allow(null),
  filter: Joi.object().unknown(true).allow(null),
  key: Joi.string().max(100).allow('', null),
  access_token: Joi.string(),
})
  // `id` and `endpoint` of a stream sent back as it was received are ignored.
  .unknown(true)
  .default({})

const inputOf = (payload: unknown): AppStreamInput => payload as AppStreamInput

const streamId = { stream_id: idParam().required() }

export const appStreamRoutes = (streams: StreamServices, shared: Shared): SvcRoute[] => [
  {
    method: 'POST',
    path: '/streams',
    svc: { token: 'app', answer: 'AppStream' },
    options: { validate: { query: Joi.object(commonQuery), payload: streamBody.keys({ object_types: streamBody.extract('object_types').required() }) } },
    handler: async (request) =>
      ok(await presentAppStream(contextOf(request, shared.views), await streams.apps.create(viewerOf(request), inputOf(request.payload)))),
  },
  {
    method: 'GET',
    path: '/streams',
    svc: { token: 'app', answer: 'AppStream[]' },
    options: { validate: { query: Joi.object({ ...commonQuery, key: Joi.string().max(100) }) } },
    handler: async (request) =>
      ok(await presentAppStreams(contextOf(request, shared.views), await streams.apps.list(viewerOf(request), request.query.key as string | undefined))),
  },
  {
    method: 'DELETE',
    path: '/streams',
    svc: { token: 'app', answer: 'AppStream[]' },
    options: { validate: { query: Joi.object(commonQuery) } },
    handler: async (request) => ok(await presentAppStreams(contextOf(request, shared.views), await streams.apps.removeAll(viewerOf(request)))),
  },
  {
    method: 'GET',
    path: '/streams/{stream_id}',
    svc: { token: 'app', answer: 'AppStream' },
    options: { validate: { params: Joi.object(streamId), query: Joi.object(commonQuery) } },
    handler: async (request) =>
      ok(await presentAppStream(contextOf(request, shared.views), await streams.apps.get(viewerOf(request), Number(request.params.stream_id)))),
  },
  {
    method: 'PUT',
    path: '/streams/{stream_id}',
    svc: { token: 'app', answer: 'AppStream' },
    options: { validate: { params: Joi.object(streamId), query: Joi.object(commonQuery), payload: streamBody } },
    handler: async (request) =>
      ok(
        await presentAppStream(
          contextOf(request, shared.views),
          await streams.apps.update(viewerOf(request), Number(request.params.stream_id), inputOf(request.payload)),
        ),
      ),
  },
  {
    method: 'DELETE',
    path: '/streams/{stream_id}',
    svc: { token: 'app', answer: 'AppStream' },
    options: { validate: { params: Joi.object(streamId), query: Joi.object(commonQuery) } },
    handler: async (request) =>
      ok(await presentAppStream(contextOf(request, shared.views), await streams.apps.remove(viewerOf(request), Number(request.params.stream_id)))),
  },
  {
    method: 'GET',
    path: '/channel/1/{endpoint_key}',
    rootOnly: true,
    svc: { token: 'none', answer: false },
    options: {
      validate: {
        params: Joi.object({ endpoint_key: Joi.string().max(80).required() }),
        query: Joi.object({ access_token: Joi.string(), purge: flag().default(false), auto_delete: flag().default(false) }),
      },
    },
    handler: async (request, h) => {
      const stream = await streams.apps.byEndpointKey(request.params.endpoint_key as string)
      if (!stream) throw notFound('no app stream has this endpoint; it may have been deleted')
      const viewer = viewerOf(request)
      if (viewer.token && viewer.token.app_id !== stream.app_id) throw new DomainError('forbidden', "this token is not of the stream's app")
      const out = new PassThrough()
      // Objects are shown as to anyone: what the app may see was decided by the hub.
      const sink = new AppChunkedSink(out, shared.views, baseUrlOf(request), anonymous)
      streams.appHub.connect(stream, { purge: request.query.purge as boolean, autoDelete: request.query.auto_delete as boolean }, sink)
      const gone = () => {
        sink.gone()
        void streams.appHub.disconnected(stream.id, sink)
      }
      request.raw.req.socket.once('close', gone)
      out.once('close', gone)
      // The headers go out at once: a consumer knows it is connected before the first event.
      out.write('\r\n')
      return h.response(out).type('application/json').header('Cache-Control', 'no-store')
    },
  },
]
