/**
 * Where each row of a table lives on disk: its file, the byte offset of its
 * JSON and the JSON's length, kept in typed arrays indexed by id. Typed
 * arrays are one allocation each, outside what the garbage collector walks:
 * a million rows cost 16 MB here, where a million row objects cost a
 * gigabyte of heap that every major collection had to mark.
 *
 * Ids are a table's sequence, so they are dense; a table trimmed from the
 * front (the event log) moves its `base` on and the arrays with it.
 */

/** A row's bytes: in file `file` (see RowFiles), `length` bytes from `offset`. */
export interface Location {
  file: number
  offset: number
  length: number
}

const FIRST_CAPACITY = 1024

export class RowDirectory {
  private base = 0
  private files = new Uint32Array(FIRST_CAPACITY)
  private offsets = new Float64Array(FIRST_CAPACITY)
  private lengths = new Uint32Array(FIRST_CAPACITY)

  /** Takes over the places of `ids` (ascending) all at once: an open from an index file. */
  load(ids: Float64Array, files: Uint32Array, offsets: Float64Array, lengths: Uint32Array): void {
    if (ids.length === 0) return
    const base = ids[0]
    let capacity = FIRST_CAPACITY
    while (capacity < ids[ids.length - 1] - base + 1) capacity *= 2
    // Locals, not fields, in the loop: a million rows.
    const intoFiles = new Uint32Array(capacity)
    const intoOffsets = new Float64Array(capacity)
    const intoLengths = new Uint32Array(capacity)
    for (let i = 0; i < ids.length; i++) {
      const at = ids[i] - base
      intoFiles[at] = files[i]
      intoOffsets[at] = offsets[i]
      intoLengths[at] = lengths[i]
    }
    this.base = base
    this.files = intoFiles
    this.offsets = intoOffsets
    this.lengths = intoLengths
  }

  /** The file of `id`'s row, or 0 when it has no place on disk. */
  file(id: number): number {
    const i = id - this.base
    return i >= 0 && i < this.files.length ? this.files[i] : 0
  }

  offset(id: number): number {
    return this.offsets[id - this.base]
  }

  length(id: number): number {
    return this.lengths[id - this.base]
  }

  set(id: number, at: Location): void {
    if (id < this.base) this.rebase(id)
    const i = id - this.base
    if (i >= this.files.length) this.grow(i + 1)
    this.files[i] = at.file
    this.offsets[i] = at.offset
    this.lengths[i] = at.length
  }

  clear(id: number): void {
    const i = id - this.base
    if (i >= 0 && i < this.files.length) this.files[i] = 0
  }

  /** Forgets every id below `id`; the arrays shift once the trimmed front is half of them. */
  clearBelow(id: number): void {
    const end = Math.min(id - this.base, this.files.length)
    if (end <= 0) return
    this.files.fill(0, 0, end)
    if (end * 2 < this.files.length) return
    this.files.copyWithin(0, end)
    this.offsets.copyWithin(0, end)
    this.lengths.copyWithin(0, end)
    this.files.fill(0, this.files.length - end)
    this.base += end
  }

  private grow(needed: number): void {
    let capacity = this.files.length
    while (capacity < needed) capacity *= 2
    this.files = copyInto(new Uint32Array(capacity), this.files, 0)
    this.offsets = copyInto(new Float64Array(capacity), this.offsets, 0)
    this.lengths = copyInto(new Uint32Array(capacity), this.lengths, 0)
  }

  /** An id below the base (a row put back under an old id): the arrays make room in front. */
  private rebase(id: number): void {
    const shift = this.base - id
    const capacity = this.files.length + shift
    this.files = copyInto(new Uint32Array(capacity), this.files, shift)
    this.offsets = copyInto(new Float64Array(capacity), this.offsets, shift)
    this.lengths = copyInto(new Uint32Array(capacity), this.lengths, shift)
    this.base = id
  }

  /** Bytes the arrays hold. */
  get bytes(): number {
    return this.files.byteLength + this.offsets.byteLength + this.lengths.byteLength
  }
}

function copyInto<A extends Uint32Array | Float64Array>(into: A, from: A, at: number): A {
  into.set(from as never, at)
  return into
}
