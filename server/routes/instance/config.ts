/** The configuration document clients cache: text and annotation limits. */
import Joi from 'joi'
import { clientConfig } from '../../../data/index.js'
import { ok } from '../../envelope.js'
import { commonQuery } from '../../params.js'
import type { SvcRoute } from '../../route.js'

export const configRoutes = (): SvcRoute[] => [
  {
    method: 'GET',
    path: '/config',
    svc: { token: 'none', answer: 'Config' },
    options: { validate: { query: Joi.object({ ...commonQuery }) } },
    handler: () => ok(clientConfig()),
  },
]
