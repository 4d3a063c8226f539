/**
 * What every answer carrying user content (file bytes, avatars, covers), or
 * pointing at it, says to the browser: never guess another type than the one
 * sent (`nosniff`: no script or stylesheet out of a file of another type),
 * and should it be shown as a page after all, it is one of its own opaque
 * origin that may run and load nothing (`sandbox; default-src 'none'`), so
 * it can never read what svc's web client keeps on svc's origin. An image
 * shown as itself needs nothing more: the browser draws it without loading
 * anything else.
 */
import type { ResponseObject } from '@hapi/hapi'

export const USER_CONTENT_CSP = "sandbox; default-src 'none'"

export const asUserContent = (response: ResponseObject): ResponseObject =>
  response.header('x-content-type-options', 'nosniff').header('content-security-policy', USER_CONTENT_CSP)
