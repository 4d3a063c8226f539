/**
 * Interactions: who followed the signed-in user, starred, reposted or replied
 * to their posts, and joined or left their broadcast channels; with the
 * list's `interactions` marker, and subscribable on a user stream.
 */
import Joi from 'joi'
import { INTERACTION_ACTIONS, type InteractionAction, type PostServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { commonQuery, listParam, paginationQuery, postGeneralQuery } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentInteractionPage } from '../../present/posts/interaction.js'
import type { SvcRoute } from '../../route.js'
import { answerSubscribing } from '../../streams/subscribe.js'
import type { Shared } from '../shared.js'

/** `interaction_actions=star,follow` (or the key repeated): a list of known actions. */
const actionList = () =>
  listParam().custom((actions: string[], helpers) => {
    const unknown = actions.filter((a) => !(INTERACTION_ACTIONS as readonly string[]).includes(a))
    if (unknown.length > 0) return helpers.message({ custom: `unknown interaction action ${unknown.join(', ')}; use ${INTERACTION_ACTIONS.join(', ')}` })
    return actions as InteractionAction[]
  })

export const interactionRoutes = (posts: PostServices, shared: Shared): SvcRoute[] => [
  {
    method: 'GET',
    path: '/users/me/interactions',
    svc: { token: 'user', answer: 'PaginatedInteraction[]' },
    options: { validate: { query: Joi.object({ ...commonQuery, ...postGeneralQuery, ...paginationQuery, interaction_actions: actionList() }) } },
    handler: async (request) =>
      answerSubscribing(request, shared.userStreams, { endpoint: 'users/me/interactions' }, async () =>
        presentInteractionPage(
          contextOf(request, shared.views),
          await posts.interactions.list(viewerOf(request), request.query.interaction_actions as InteractionAction[] | undefined, request.query),
        ),
      ),
  },
]
