/**
 * Many strings in one UTF-8 buffer and the offsets where each ends: what the
 * places index keeps instead of a million JS strings (smaller, and an
 * ArrayBuffer can be handed from the worker that builds it at no cost).
 */
export interface PackedStrings {
  bytes: Uint8Array
  /** Where string `k` ends in `bytes`; it starts where `k - 1` ends (0 for the first). */
  ends: Uint32Array
}

export function packStrings(strings: readonly string[]): PackedStrings {
  const ends = new Uint32Array(strings.length)
  let total = 0
  for (let k = 0; k < strings.length; k++) ends[k] = total += Buffer.byteLength(strings[k])
  const bytes = new Uint8Array(total)
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let k = 0, at = 0; k < strings.length; k++) at += view.write(strings[k], at)
  return { bytes, ends }
}

/** Reads the strings of a `PackedStrings`, one at a time. */
export class StringTable {
  private readonly view: Buffer

  constructor(private readonly packed: PackedStrings) {
    this.view = Buffer.from(packed.bytes.buffer, packed.bytes.byteOffset, packed.bytes.byteLength)
  }

  get length(): number {
    return this.packed.ends.length
  }

  at(k: number): string {
    return this.view.toString('utf8', k === 0 ? 0 : this.packed.ends[k - 1], this.packed.ends[k])
  }
}

/** The buffers of `packed`, for a transfer list. */
export const buffersOf = (packed: PackedStrings): ArrayBuffer[] => [packed.bytes.buffer as ArrayBuffer, packed.ends.buffer as ArrayBuffer]
