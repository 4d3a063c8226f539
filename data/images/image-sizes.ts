/**
 * Resizing on request, within bounds: asked sides snap up to the standard
 * ones (`IMAGE_WIDTHS`), and each client address may cause only so many new
 * variants a minute (`NEW_IMAGE_VARIANTS_PER_MINUTE`); a variant made
 * already costs nothing. Counted per node, in memory.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import { DomainError } from '../errors.js'
import { IMAGE_WIDTHS, MAX_IMAGE_SIDE, NEW_IMAGE_VARIANTS_PER_MINUTE } from '../limits.js'
import type { ImageSize } from './resize-image.js'

const snapSide = (side: number | undefined): number | undefined => (side === undefined ? undefined : (IMAGE_WIDTHS.find((w) => w >= side) ?? MAX_IMAGE_SIDE))

/** `size` with each given side snapped up to the next standard one. */
export const snapImageSize = (size: ImageSize): ImageSize => {
  const w = snapSide(size.w)
  const h = snapSide(size.h)
  return { ...(w === undefined ? {} : { w }), ...(h === undefined ? {} : { h }) }
}

export class VariantBudget {
  private readonly limiter = new RateLimiterMemory({ keyPrefix: 'svc-image-variants', points: NEW_IMAGE_VARIANTS_PER_MINUTE, duration: 60 })

  /** Counts one new variant against `client`'s minute. Errors: `rate_limited` (over the budget). */
  async spend(client: string): Promise<void> {
    try {
      await this.limiter.consume(client)
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err
      throw new DomainError(
        'rate_limited',
        `too many new image sizes from your address: at most ${NEW_IMAGE_VARIANTS_PER_MINUTE} a minute; ` +
          `try again in ${Math.ceil(err.msBeforeNext / 1000)} s, or ask for a size made already`,
      )
    }
  }
}
