/** `--data-dir DIR`, default `$SVC_DATA_DIR`, else `./svc-data`; and telling the operator which one a command used. */
import { resolve } from 'node:path'
import { BUS_URL_PATTERN, requireDataDir, STORE_URL_PATTERN } from '../../data/index.js'
import { environmentOf } from '../environment.js'
import type { Io } from '../io.js'

export const dataDirOf = (io: Io, opts: { dataDir?: string }): string => resolve(opts.dataDir ?? environmentOf(io.env).dataDir ?? './svc-data')

/**
 * The data dir named by `opts`, which must already be there: only `init`
 * and `serve` create one, so a mistyped path cannot start an empty instance.
 */
export async function existingDataDirOf(io: Io, opts: { dataDir?: string }): Promise<string> {
  const dir = dataDirOf(io, opts)
  await requireDataDir(dir)
  return dir
}

/** Says on stderr (stdout may carry `--json`) which data dir a change went to. */
export const reportDataDir = (io: Io, line: string): void => {
  io.stderr.write(`svc: ${line}\n`)
}

/**
 * `--store URL`, default `$SVC_STORE_URL`; undefined leaves the choice to the
 * data dir's config (`store`, "" for the embedded store).
 */
export function storeOf(io: Io, opts: { store?: string }): string | undefined {
  const url = opts.store ?? environmentOf(io.env).storeUrl
  if (url !== undefined && !STORE_URL_PATTERN.test(url)) throw new Error(`invalid store ${url}: give a postgres:// URL`)
  return url
}

/** `--bus URL`, default `$SVC_BUS_URL`; undefined leaves it to the config's `bus` ("" for none). */
export function busOf(io: Io, opts: { bus?: string }): string | undefined {
  const url = opts.bus ?? environmentOf(io.env).busUrl
  if (url !== undefined && !BUS_URL_PATTERN.test(url)) throw new Error(`invalid bus ${url}: give a redis:// URL`)
  return url
}

/** What every command opens the domain with beyond its data dir: the store, the bus, and what the environment says of places and password cost. */
export function domainOptionsOf(
  io: Io,
  opts: { store?: string; bus?: string },
): { store?: string; bus?: string; passwordCost?: number; bundledPlaces?: boolean } {
  const { testPasswordCost, placesBundled } = environmentOf(io.env)
  return {
    store: storeOf(io, opts),
    bus: busOf(io, opts),
    ...(testPasswordCost === undefined ? {} : { passwordCost: testPasswordCost }),
    ...(placesBundled === undefined ? {} : { bundledPlaces: placesBundled }),
  }
}
