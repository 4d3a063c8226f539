/**
 * Files: upload (whole, or incomplete then content and derived files),
 * read one, many or one's own, change name, public flag and annotations,
 * delete, and reach the content through signed addresses svc serves itself,
 * as user content: only an image svc decoded inline, anything else a
 * download (data/files/file-delivery.ts, server/user-content.ts). Every
 * `/files` route takes a `file_token` (write or read token) whatever its
 * method; the domain decides what it grants.
 */
import { createReadStream } from 'node:fs'
import type { Request } from '@hapi/hapi'
import contentDisposition from 'content-disposition'
import Joi from 'joi'
import {
  MAX_FILE_IDS,
  UPLOAD_SCOPES,
  type FileAccess,
  type FileService,
  type AuthServices,
  type InstanceConfig,
  type FileRow,
  type FileTokens,
} from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, flag, idList, idParam, listParam, paginationQuery, userGeneralQuery } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { contentUrl, presentFile, presentFiles, type FileShow } from '../../present/files/file.js'
import { presentPage } from '../../present/page.js'
import type { SvcRoute } from '../../route.js'
import { answerSubscribing } from '../../streams/subscribe.js'
import { asUserContent } from '../../user-content.js'
import type { Shared } from '../shared.js'
import { createBodyOf, derivedOf, uploadOfBody, uploadOptions, type Uploading } from './file-uploads.js'

const fileGeneralQuery = {
  ...commonQuery,
  ...userGeneralQuery,
  include_file_annotations: flag().default(false),
  file_token: Joi.string().max(100),
}
const query = Joi.object(fileGeneralQuery)
const listQuery = query.keys({
  ...paginationQuery,
  file_types: listParam(Joi.string().max(255)),
  include_incomplete: flag().default(true),
  include_private: flag().default(true),
})
const fileParams = Joi.object({ file_id: idParam().required() })
const derivedKey = () =>
  Joi.string()
    .pattern(/^[A-Za-z0-9_]{1,64}$/)
    .messages({ 'string.pattern.base': '{{#label}} must be an alphanumeric derived file key' })
const derivedParams = Joi.object({ file_id: idParam().required(), derived_key: derivedKey().required() })

/** Only these keys of a File sent back are read; the rest are ignored. */
const changesPayload = Joi.object({
  name: Joi.string().allow('', null).max(2000),
  public: flag().allow(null),
  annotations: Joi.array().max(100).items(Joi.object().unknown(true)),
})
  .unknown(true)
  .allow(null)

const fileId = (request: Request): number => Number(request.params.file_id)
const tokensOf = (request: Request): FileTokens => {
  const token = request.query.file_token as string | undefined
  return token ? { file_token: token } : {}
}
const annotationsShown = (request: Request): boolean => Boolean(request.query.include_annotations || request.query.include_file_annotations)

/** Was the request sent without query parameters (the access token aside)? */
const bareQuery = (request: Request): boolean => [...request.url.searchParams.keys()].every((k) => k === 'access_token')

/**
 * The spec's rule for tokens after creation: a token passed is shown back;
 * the owner's `files`-scoped fetch without query parameters shows the write token.
 */
const showFor = (files: FileService, request: Request, file: FileRow, access: FileAccess): FileShow => {
  const token = request.query.file_token as string | undefined
  const show: FileShow = { annotations: annotationsShown(request) }
  if (access === 'write_token') show.file_token = token
  if (access === 'read_token') show.file_token_read = token
  if (access === 'owner' && request.method === 'get' && bareQuery(request)) show.file_token = files.links.writeToken(file)
  return show
}

export const fileRoutes = (
  files: FileService,
  { tokens, limits }: { tokens: AuthServices['tokens']; limits: InstanceConfig['limits'] },
  shared: Shared,
): SvcRoute[] => {
  const uploading: Uploading = { files, tokens, limits }
  const present = (request: Request, file: FileRow, show: FileShow) => presentFile(contextOf(request, shared.views), files, file, show)
  /** Answers the file as its caller now sees it. */
  const answer = async (request: Request, file: FileRow) => {
    const { access } = await files.get(viewerOf(request), file.id, tokensOf(request))
    return ok(await present(request, file, showFor(files, request, file, access)))
  }
  return [
    {
      method: 'POST',
      path: '/files',
      svc: { token: 'user', scopes: UPLOAD_SCOPES, answer: 'File' },
      options: { ...uploadOptions(uploading, false, limits.storage + 1024 * 1024), validate: { query } },
      handler: async (request) => {
        const { input, content, derived } = await createBodyOf(request)
        const { file, file_token } = await files.create(viewerOf(request), input, content, derived)
        return ok(await present(request, file, { file_token, annotations: annotationsShown(request) }))
      },
    },
    {
      method: 'PUT',
      path: '/files/{file_id}/content',
      svc: { token: 'user', answer: false },
      options: { ...uploadOptions(uploading, true), validate: { params: fileParams, query } },
      // Success has no body (adn §12.4); the file is fetched as usual.
      handler: async (request, h) => {
        await files.setContent(viewerOf(request), fileId(request), tokensOf(request), uploadOfBody(request))
        return h.response().code(204)
      },
    },
    ...(['PUT', 'POST'] as const).flatMap((method) =>
      ['/files/{file_id}/content/{derived_key}', ...(method === 'POST' ? ['/files/{file_id}/{derived_key}'] : [])].map((path): SvcRoute => ({
        method,
        path,
        svc: { token: 'user', answer: 'File' },
        options: { ...uploadOptions(uploading, true), validate: { params: derivedParams, query } },
        handler: async (request) => {
          const upload = derivedOf(request, request.params.derived_key as string)
          return answer(request, await files.addDerived(viewerOf(request), fileId(request), tokensOf(request), upload))
        },
      })),
    ),
    {
      method: 'GET',
      path: '/files/{file_id}',
      svc: { token: 'none', answer: 'File' },
      options: { validate: { params: fileParams, query } },
      handler: async (request) => {
        const { file, access } = await files.get(viewerOf(request), fileId(request), tokensOf(request))
        return ok(await present(request, file, showFor(files, request, file, access)))
      },
    },
    {
      method: 'GET',
      path: '/files',
      svc: { token: 'user', scopes: ['files'], answer: 'File[]' },
      options: { validate: { query: query.keys({ ids: idList(MAX_FILE_IDS).required() }) } },
      handler: async (request) => {
        const found = await files.getMany(viewerOf(request), (request.query.ids as string[]).map(Number))
        return ok(await presentFiles(contextOf(request, shared.views), files, found, { annotations: annotationsShown(request) }))
      },
    },
    {
      method: 'GET',
      path: '/users/me/files',
      svc: { token: 'user', scopes: ['files'], answer: 'PaginatedFile[]' },
      options: { validate: { query: listQuery } },
      handler: async (request) => {
        const q = request.query as Record<string, never>
        const answer = async () => {
          const page = await files.list(
            viewerOf(request),
            {
              since_id: q.since_id === undefined ? undefined : Number(q.since_id),
              before_id: q.before_id === undefined ? undefined : Number(q.before_id),
              count: q.count,
            },
            { file_types: q.file_types, include_incomplete: q.include_incomplete, include_private: q.include_private },
          )
          return presentPage(page, (listed) => presentFiles(contextOf(request, shared.views), files, listed, { annotations: annotationsShown(request) }))
        }
        return answerSubscribing(request, shared.userStreams, { endpoint: 'users/me/files' }, answer)
      },
    },
    ...(['PUT', 'PATCH'] as const).map((method): SvcRoute => ({
      method,
      path: '/files/{file_id}',
      svc: { token: 'user', answer: 'File' },
      options: { validate: { params: fileParams, query, payload: changesPayload } },
      handler: async (request) => {
        const { name, public: isPublic, annotations } = (request.payload ?? {}) as Record<string, unknown>
        const file = await files.update(viewerOf(request), fileId(request), tokensOf(request), { name, public: isPublic, annotations })
        return answer(request, file)
      },
    })),
    {
      method: 'DELETE',
      path: '/files/{file_id}',
      svc: { token: 'user', answer: 'File' },
      options: { validate: { params: fileParams, query } },
      handler: async (request) => {
        const viewer = viewerOf(request)
        const { access } = await files.get(viewer, fileId(request), tokensOf(request))
        const file = await files.remove(viewer, fileId(request), tokensOf(request))
        return ok(await present(request, file, showFor(files, request, file, access)))
      },
    },
    ...[
      { path: '/files/{file_id}/content', params: fileParams },
      { path: '/files/{file_id}/content/{derived_key}', params: derivedParams },
    ].map(({ path, params }): SvcRoute => ({
      method: 'GET',
      path,
      svc: { token: 'none', raw: true },
      options: { validate: { params, query: query.unknown(true) } },
      handler: async (request, h) => {
        const key = request.params.derived_key as string | undefined
        const found = await files.contentFor(viewerOf(request), fileId(request), tokensOf(request), key)
        if (!found) return h.response().code(204)
        return asUserContent(h.redirect(contentUrl(contextOf(request, shared.views).baseUrl, found.file, key, found.signed)))
      },
    })),
    ...['/files-content/{file_id}', '/files-content/{file_id}/{derived_key}'].map((path): SvcRoute => ({
      method: 'GET',
      path,
      rootOnly: true,
      svc: { token: 'none', raw: true, unlimited: true },
      options: {
        validate: {
          params: Joi.object({ file_id: idParam().required(), derived_key: derivedKey() }),
          query: Joi.object({ expires: Joi.number().integer().min(0).required(), sig: Joi.string().max(100).required() }).unknown(true),
        },
      },
      handler: async (request, h) => {
        const { expires, sig } = request.query as { expires: number; sig: string }
        const content = await files.openSigned(fileId(request), request.params.derived_key as string | undefined, { expires, sig })
        return asUserContent(
          h
            .response(createReadStream(content.path))
            .type(content.type)
            .header('content-disposition', contentDisposition(content.name, { type: content.disposition }))
            .header('content-length', String(content.size))
            .header('cache-control', `private, max-age=${Math.max(0, expires - Math.floor(Date.now() / 1000))}`),
        )
      },
    })),
    {
      method: 'GET',
      path: '/f/{code}',
      rootOnly: true,
      svc: { token: 'none', raw: true },
      options: {
        validate: {
          params: Joi.object({
            code: Joi.string()
              .pattern(/^[0-9a-z]{9,19}(\.[A-Za-z0-9]{1,10})?$/)
              .required(),
          }),
        },
      },
      handler: async (request, h) => {
        const file = await files.byShortCode(request.params.code as string)
        const signed = file && files.links.signContent(file, undefined)
        if (!file || !signed) return h.response({ meta: { code: 404, error_message: 'no such file' } }).code(404)
        return asUserContent(h.redirect(contentUrl(contextOf(request, shared.views).baseUrl, file, undefined, signed)))
      },
    },
  ]
}
