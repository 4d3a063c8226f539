/** `POST /posts/{post_id}/report`: a user reports a post to the operator (and mutes its author), as App.net had it. */
import Joi from 'joi'
import { REPORT_REASON_MAX, type ReportService } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, idParam, postGeneralQuery } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentPost } from '../../present/posts/post.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'

export const postReportRoutes = (reports: ReportService, shared: Shared): SvcRoute[] => [
  {
    method: 'POST',
    path: '/posts/{post_id}/report',
    svc: { token: 'user' },
    options: {
      validate: {
        params: Joi.object({ post_id: idParam().required() }),
        query: Joi.object({ ...commonQuery, ...postGeneralQuery }),
        // App.net's call had no body; a reason, when a client sends one, reaches the operator.
        payload: Joi.object({ reason: Joi.string().allow('').max(REPORT_REASON_MAX) }).allow(null, ''),
      },
    },
    handler: async (request) => {
      const reason = (request.payload as { reason?: string } | null)?.reason
      const post = await reports.reportPost(viewerOf(request), Number(request.params.post_id), reason || undefined)
      return ok(await presentPost(contextOf(request, shared.views), post))
    },
  },
]
