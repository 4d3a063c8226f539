/**
 * `GET /users/me/export` (svc's own): the token's user downloads their data
 * as a ZIP (the `export` scope, as App.net had it). A heavy read: it counts
 * against the token's write bucket too. Errors come in the envelope; once
 * the archive has started, a failure breaks the download.
 */
import contentDisposition from 'content-disposition'
import Joi from 'joi'
import type { Domain } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { contextOf } from '../../present/context.js'
import { EXPORT_OPTIONS, exportArchive } from '../../present/export/export-archive.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'

export const exportRoutes = (exports: Domain['exports'], shared: Shared): SvcRoute[] => [
  {
    method: 'GET',
    path: '/users/me/export',
    svc: { token: 'user', scopes: ['export'], raw: true, rateAs: 'heavy' },
    options: { description: 'Your data as a ZIP of API objects', validate: { query: Joi.object({}).unknown(true) } },
    handler: (request, h) => {
      const account = exports.open(viewerOf(request))
      const madeAt = new Date()
      const ctx = { ...contextOf(request, shared.views), viewer: account.viewer, options: EXPORT_OPTIONS }
      const name = `svc-export-${account.user.username}-${madeAt.toISOString().slice(0, 10)}.zip`
      return h
        .response(exportArchive(ctx, account, madeAt))
        .type('application/zip')
        .header('content-disposition', contentDisposition(name))
        .header('cache-control', 'no-store')
    },
  },
]
