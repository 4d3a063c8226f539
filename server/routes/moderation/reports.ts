/**
 * Reports to the operator: of a post (`POST /posts/{post_id}/report`, as
 * App.net had it), of an account and of a message (svc's own, on the same
 * pattern). Each answers what was reported, as its own lookup would.
 */
import Joi from 'joi'
import { MESSAGING_SCOPES, REPORT_REASON_MAX, type ReportService } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, idParam, messageGeneralQuery, postGeneralQuery, userGeneralQuery, userRef } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentMessage } from '../../present/channels/message.js'
import { presentPost } from '../../present/posts/post.js'
import { presentUser } from '../../present/users/user.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'

// App.net's call had no body; a reason, when a client sends one, reaches the operator.
const reasonBody = Joi.object({ reason: Joi.string().allow('').max(REPORT_REASON_MAX) }).allow(null, '')

const reasonOf = (payload: unknown): string | undefined => (payload as { reason?: string } | null)?.reason || undefined

export const reportRoutes = (reports: ReportService, shared: Shared): SvcRoute[] => [
  {
    method: 'POST',
    path: '/posts/{post_id}/report',
    svc: { token: 'user', answer: 'Post' },
    options: {
      validate: {
        params: Joi.object({ post_id: idParam().required() }),
        query: Joi.object({ ...commonQuery, ...postGeneralQuery }),
        payload: reasonBody,
      },
    },
    handler: async (request) => {
      const post = await reports.reportPost(viewerOf(request), Number(request.params.post_id), reasonOf(request.payload))
      return ok(await presentPost(contextOf(request, shared.views), post))
    },
  },
  {
    method: 'POST',
    path: '/users/{user_id}/report',
    svc: { token: 'user', answer: 'User' },
    options: {
      validate: {
        params: Joi.object({ user_id: userRef().required() }),
        query: Joi.object({ ...commonQuery, ...userGeneralQuery }),
        payload: reasonBody,
      },
    },
    handler: async (request) => {
      const user = await reports.reportUser(viewerOf(request), request.params.user_id as string, reasonOf(request.payload))
      return ok(await presentUser(contextOf(request, shared.views), user))
    },
  },
  {
    method: 'POST',
    path: '/channels/{channel_id}/messages/{message_id}/report',
    svc: { token: 'user', scopes: MESSAGING_SCOPES, answer: 'Message' },
    options: {
      validate: {
        params: Joi.object({ channel_id: idParam().required(), message_id: idParam().required() }),
        query: Joi.object({ ...commonQuery, ...messageGeneralQuery }),
        payload: reasonBody,
      },
    },
    handler: async (request) => {
      const viewer = viewerOf(request)
      const message = await reports.reportMessage(viewer, Number(request.params.channel_id), Number(request.params.message_id), reasonOf(request.payload))
      return ok(await presentMessage(contextOf(request, shared.views), message))
    },
  },
]
