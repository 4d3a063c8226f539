/**
 * The API counts positions in Unicode code points while JS strings index
 * UTF-16 units; the scanners work on UTF-16 offsets and convert here once.
 */

/** Number of code points in `text` (an emoji counts 1). */
export const codePointLength = (text: string): number => {
  let n = 0
  for (const _ of text) n++
  return n
}

/** Code-point position of the UTF-16 offset `offset` of `text`. */
export const toCodePoint = (text: string, offset: number): number => codePointLength(text.slice(0, offset))

/** UTF-16 offset of code-point position `pos` of `text` (`text.length` past the end). */
export const toUtf16 = (text: string, pos: number): number => {
  let offset = 0
  for (let i = 0; i < pos && offset < text.length; i++) offset += (text.codePointAt(offset) as number) > 0xffff ? 2 : 1
  return offset
}

/** A half-open range of UTF-16 offsets inside the working text. */
export interface Range {
  start: number
  end: number
}

export const overlaps = (a: Range, b: Range): boolean => a.start < b.end && b.start < a.end
export const contains = (outer: Range, inner: Range): boolean => outer.start <= inner.start && inner.end <= outer.end
