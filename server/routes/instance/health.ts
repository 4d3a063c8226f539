/**
 * `/livez` and `/readyz`, for a process supervisor or a load balancer (the
 * operator contract names them): alive while the process answers at all;
 * ready while it is not stopping and its store answers. Plain text, not the
 * API's envelope (a probe reads the status code, a person the line); never
 * rate limited, never cached.
 */
import type { HealthService } from '../../../data/index.js'
import type { SvcRoute } from '../../route.js'

export const healthRoutes = (health: HealthService): SvcRoute[] => [
  {
    method: 'GET',
    path: '/livez',
    rootOnly: true,
    svc: { token: 'none', raw: true, unlimited: true },
    handler: (_request, h) => h.response('alive\n').type('text/plain; charset=utf-8').header('Cache-Control', 'no-store'),
  },
  {
    method: 'GET',
    path: '/readyz',
    rootOnly: true,
    svc: { token: 'none', raw: true, unlimited: true },
    handler: async (_request, h) => {
      const readiness = await health.readiness()
      return h
        .response(readiness.ready ? 'ready\n' : `unavailable: ${readiness.reason}\n`)
        .type('text/plain; charset=utf-8')
        .code(readiness.ready ? 200 : 503)
        .header('Cache-Control', 'no-store')
    },
  },
]
