/** How an answered request went, as the log and the metrics both read it: its status and how long it took. */
import type { Request } from '@hapi/hapi'

export const outcomeOf = (request: Request): { status: number | null; ms: number } => {
  const info = request.info
  return {
    status: request.response && 'statusCode' in request.response ? request.response.statusCode : null,
    ms: (info.completed || info.responded || Date.now()) - info.received,
  }
}
