/**
 * The JSON Pointers of filter clauses (RFC 6901) with the API's extension: a
 * segment `*` stands for every element of a list, and `~2` is how a literal
 * `*` is written. `~0` is `~` and `~1` is `/`, as in the RFC.
 */

/** A parsed segment: a key (an object's key or a list's index), or every element of a list. */
export type PointerSegment = { key: string } | { every: true }

const BAD_ESCAPE = /~(?![012])/
const UNESCAPED: Record<string, string> = { '~0': '~', '~1': '/', '~2': '*' }

/**
 * The segments of `pointer`, or `null` when it is not a pointer into the
 * message: it must start with `/`, and a `~` must be followed by 0, 1 or 2.
 */
export function parsePointer(pointer: string): PointerSegment[] | null {
  if (!pointer.startsWith('/')) return null
  const segments: PointerSegment[] = []
  for (const raw of pointer.slice(1).split('/')) {
    if (BAD_ESCAPE.test(raw)) return null
    // One pass, so `~01` is the key `~1` and not `/`.
    segments.push(raw === '*' ? { every: true } : { key: raw.replace(/~[012]/g, (escape) => UNESCAPED[escape]) })
  }
  return segments
}
