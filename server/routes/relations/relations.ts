/** Relations: follow, mute and block, and the lists they make. */
import Joi from 'joi'
import type { RelationServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, idList, paginationQuery, userGeneralQuery, userRef } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentPage } from '../../present/page.js'
import { presentUser, presentUsers } from '../../present/users/user.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'
import { answerSubscribing } from '../../streams/subscribe.js'

const userParams = Joi.object({ user_id: userRef().required() })
const userQuery = Joi.object({ ...commonQuery, ...userGeneralQuery })
const listQuery = userQuery.keys(paginationQuery)

const actions = [
  { path: 'follow', add: 'follow', remove: 'unfollow' },
  { path: 'mute', add: 'mute', remove: 'unmute' },
  { path: 'block', add: 'block', remove: 'unblock' },
] as const

const actionRoutes = (relations: RelationServices, shared: Shared): SvcRoute[] =>
  actions.flatMap(({ path, add, remove }) =>
    (['POST', 'DELETE'] as const).map((method): SvcRoute => ({
      method,
      path: `/users/{user_id}/${path}`,
      svc: { token: 'user', scopes: ['follow'], answer: 'User' },
      options: { validate: { params: userParams, query: userQuery } },
      handler: async (request) => {
        const target = await relations.core[method === 'POST' ? add : remove](viewerOf(request), request.params.user_id as string)
        return ok(await presentUser(contextOf(request, shared.views), target))
      },
    })),
  )

const followRoutes = (relations: RelationServices, shared: Shared): SvcRoute[] =>
  (['following', 'followers'] as const).flatMap((side): SvcRoute[] => [
    {
      method: 'GET',
      path: `/users/{user_id}/${side}`,
      svc: { token: 'any', answer: 'PaginatedUser[]' },
      options: { validate: { params: userParams, query: listQuery } },
      handler: async (request) => {
        const answer = async () => {
          const page = await relations.lists.follows(viewerOf(request), request.params.user_id as string, side, request.query)
          return presentPage(page, (users) => presentUsers(contextOf(request, shared.views), users))
        }
        if (request.params.user_id !== 'me') return answer()
        return answerSubscribing(request, shared.userStreams, { endpoint: `users/me/${side}` }, answer)
      },
    },
    {
      method: 'GET',
      path: `/users/{user_id}/${side}/ids`,
      svc: { token: 'any', answer: 'string[]' },
      options: { validate: { params: userParams, query: Joi.object(commonQuery) } },
      handler: async (request) => ok(await relations.lists.followIds(viewerOf(request), request.params.user_id as string, side)),
    },
  ])

const privateRoutes = (relations: RelationServices, shared: Shared): SvcRoute[] =>
  (
    [
      ['muted', 'mutes'],
      ['blocked', 'blocks'],
    ] as const
  ).flatMap(([path, table]): SvcRoute[] => [
    {
      method: 'GET',
      path: `/users/{user_id}/${path}`,
      svc: { token: 'any', answer: 'User[]' },
      options: { validate: { params: userParams, query: userQuery } },
      handler: async (request) => {
        const users = await relations.lists.hidden(viewerOf(request), request.params.user_id as string, table)
        return ok(await presentUsers(contextOf(request, shared.views), users))
      },
    },
    {
      method: 'GET',
      path: `/users/${path}/ids`,
      svc: { token: 'app', answer: 'object' },
      options: { validate: { query: Joi.object({ ...commonQuery, ids: idList(200).required() }) } },
      handler: async (request) => ok(await relations.lists.hiddenIds(viewerOf(request), (request.query.ids as string[]).map(Number), table)),
    },
  ])

export const relationRoutes = (relations: RelationServices, shared: Shared): SvcRoute[] => [
  ...actionRoutes(relations, shared),
  ...followRoutes(relations, shared),
  ...privateRoutes(relations, shared),
]
