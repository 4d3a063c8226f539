/**
 * Stored annotations as the API shows them: marks filled in by the domain's
 * renderer, read tokens bound to the object carrying the annotations
 * (`grant`), none in stream events.
 */
import type { Grant } from '../../data/index.js'
import type { PresentContext } from './context.js'

export const renderAnnotations = <T>(ctx: PresentContext, annotations: T, grant: Grant | null): T =>
  ctx.views.annotationRenderer.render(annotations, { baseUrl: ctx.baseUrl, grant, streamed: ctx.streamed })
