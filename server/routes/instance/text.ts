/** The text processor: what a post's text would become, nothing stored. */
import Joi from 'joi'
import type { TextService } from '../../../data/index.js'
import { ok } from '../../envelope.js'
import { commonQuery, entitiesInput } from '../../params.js'
import type { SvcRoute } from '../../route.js'

// JSON with `text` and `entities`, or a form with `text`; other keys (an access token, say) are ignored.
const processPayload = Joi.object({
  text: Joi.string().allow('').max(20000).required(),
  entities: entitiesInput(),
}).unknown(true)

export const textRoutes = (texts: TextService): SvcRoute[] => [
  {
    method: 'POST',
    path: '/text/process',
    svc: { token: 'any', answer: 'ProcessedText' },
    options: { validate: { query: Joi.object(commonQuery), payload: processPayload } },
    handler: async (request) => {
      const { text, entities } = request.payload as { text: string; entities?: Record<string, never> }
      return ok(await texts.process(text, entities))
    },
  },
]
