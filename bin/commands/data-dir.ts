/** `--data-dir DIR`, default `$SVC_DATA_DIR`, else `./svc-data`. */
import { resolve } from 'node:path'

export const dataDirOf = (opts: { dataDir?: string }): string => resolve(opts.dataDir ?? process.env.SVC_DATA_DIR ?? './svc-data')
