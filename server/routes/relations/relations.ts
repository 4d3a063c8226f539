/** Relations: follow, mute and block, and the lists they make. */
import Joi from 'joi'
import type { Domain } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, idList, paginationQuery, userGeneralQuery, userRef } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentPage } from '../../present/page.js'
import { presentUser, presentUsers } from '../../present/users/user.js'
import type { SvcRoute } from '../../route.js'
import { answerSubscribing } from '../../streams/subscribe.js'

const userParams = Joi.object({ user_id: userRef().required() })
const userQuery = Joi.object({ ...commonQuery, ...userGeneralQuery })
const listQuery = userQuery.keys(paginationQuery)

const actions = [
  { path: 'follow', add: 'follow', remove: 'unfollow' },
  { path: 'mute', add: 'mute', remove: 'unmute' },
  { path: 'block', add: 'block', remove: 'unblock' },
] as const

const actionRoutes = (domain: Domain): SvcRoute[] =>
  actions.flatMap(({ path, add, remove }) =>
    (['POST', 'DELETE'] as const).map((method): SvcRoute => ({
      method,
      path: `/users/{user_id}/${path}`,
      svc: { token: 'user', scopes: ['follow'] },
      options: { validate: { params: userParams, query: userQuery } },
      handler: async (request) => {
        const target = await domain.relations[method === 'POST' ? add : remove](viewerOf(request), request.params.user_id as string)
        return ok(await presentUser(contextOf(request, domain), target))
      },
    })),
  )

const followRoutes = (domain: Domain): SvcRoute[] =>
  (['following', 'followers'] as const).flatMap((side): SvcRoute[] => [
    {
      method: 'GET',
      path: `/users/{user_id}/${side}`,
      svc: { token: 'any' },
      options: { validate: { params: userParams, query: listQuery } },
      handler: async (request) => {
        const answer = async () => {
          const page = await domain.relationLists.follows(viewerOf(request), request.params.user_id as string, side, request.query)
          return presentPage(page, (users) => presentUsers(contextOf(request, domain), users))
        }
        if (request.params.user_id !== 'me') return answer()
        return answerSubscribing(request, domain, { endpoint: `users/me/${side}` }, answer)
      },
    },
    {
      method: 'GET',
      path: `/users/{user_id}/${side}/ids`,
      svc: { token: 'any' },
      options: { validate: { params: userParams, query: Joi.object(commonQuery) } },
      handler: async (request) => ok(await domain.relationLists.followIds(viewerOf(request), request.params.user_id as string, side)),
    },
  ])

const privateRoutes = (domain: Domain): SvcRoute[] =>
  (
    [
      ['muted', 'mutes'],
      ['blocked', 'blocks'],
    ] as const
  ).flatMap(([path, table]): SvcRoute[] => [
    {
      method: 'GET',
      path: `/users/{user_id}/${path}`,
      svc: { token: 'any' },
      options: { validate: { params: userParams, query: userQuery } },
      handler: async (request) => {
        const users = await domain.relationLists.hidden(viewerOf(request), request.params.user_id as string, table)
        return ok(await presentUsers(contextOf(request, domain), users))
      },
    },
    {
      method: 'GET',
      path: `/users/${path}/ids`,
      svc: { token: 'app' },
      options: { validate: { query: Joi.object({ ...commonQuery, ids: idList(200).required() }) } },
      handler: async (request) => ok(await domain.relationLists.hiddenIds(viewerOf(request), (request.query.ids as string[]).map(Number), table)),
    },
  ])

export const relationRoutes = (domain: Domain): SvcRoute[] => [...actionRoutes(domain), ...followRoutes(domain), ...privateRoutes(domain)]
