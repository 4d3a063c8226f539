/**
 * The pages at a broadcast channel's fallback URL (`/c/<code>`) and its
 * messages' (`/c/<code>/m/<code>`), codes being ids in base 36, so that the
 * addresses the API hands out lead somewhere.
 */
import Joi from 'joi'
import { idOfCode, type Domain } from '../../../data/index.js'
import { broadcastMessagePage, broadcastPage } from '../../pages/broadcast-page.js'
import { htmlResponse, invalidInputPage, pageHandler } from '../../pages/layout.js'
import { idParam } from '../../params.js'
import { baseUrlOf } from '../../request-trust/base-url.js'
import type { SvcRoute } from '../../route.js'

// Ten base-36 digits stay below 2^53.
const code = () => Joi.string().pattern(/^[0-9a-z]{1,10}$/i)

export const broadcastPageRoutes = (publicReads: Domain['public']): SvcRoute[] => [
  {
    method: 'GET',
    path: '/c/{channel}',
    rootOnly: true,
    svc: { token: 'none', raw: true, rateAs: 'page' },
    options: {
      validate: {
        params: Joi.object({ channel: code().required() }),
        // Cache busters and other keys a browser may add are ignored.
        query: Joi.object({ before_id: idParam() }).unknown(true),
        failAction: invalidInputPage,
      },
    },
    handler: pageHandler(async (request, h) => {
      const before = request.query.before_id as string | undefined
      const found = await publicReads.broadcast(idOfCode(request.params.channel as string), before === undefined ? undefined : Number(before))
      const base = baseUrlOf(request)
      return htmlResponse(h, broadcastPage(found, base), 200, base)
    }),
  },
  {
    method: 'GET',
    path: '/c/{channel}/m/{message}',
    rootOnly: true,
    svc: { token: 'none', raw: true, rateAs: 'page' },
    options: { validate: { params: Joi.object({ channel: code().required(), message: code().required() }), failAction: invalidInputPage } },
    handler: pageHandler(async (request, h) => {
      const { channel, message } = await publicReads.broadcastMessage(idOfCode(request.params.channel as string), idOfCode(request.params.message as string))
      const base = baseUrlOf(request)
      return htmlResponse(h, broadcastMessagePage(channel, message, base), 200, base)
    }),
  },
]
