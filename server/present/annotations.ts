/**
 * Stored annotations as the API shows them: marks filled in by the domain's
 * renderer, read tokens bound to the object carrying the annotations
 * (`grant`), none in stream events, and nothing of their files at all once
 * that object is deleted or deactivated (`withheld`).
 */
import type { Grant } from '../../data/index.js'
import type { PresentContext } from './context.js'

export const renderAnnotations = <T>(ctx: PresentContext, annotations: T, grant: Grant | null, withheld = false): T =>
  ctx.views.annotationRenderer.render(annotations, { baseUrl: ctx.baseUrl, grant, streamed: ctx.streamed, withheld })
