/**
 * Format 0 is the layout from before formats were recorded: the store's
 * journal and snapshot files at the top of the data dir, no meta.json.
 * Format 1 keeps them in `store/` and user images in `images/`.
 */
import { mkdir, readdir, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { fsyncPath } from '../fsync.js'

const STORE_FILE = /^(journal|snapshot)-\d+\.jsonl(\.tmp)?$/

export async function initialLayout(dataDir: string): Promise<void> {
  const storeDir = join(dataDir, 'store')
  await mkdir(storeDir, { recursive: true })
  await mkdir(join(dataDir, 'images'), { recursive: true })
  for (const name of await readdir(dataDir)) {
    if (STORE_FILE.test(name)) await rename(join(dataDir, name), join(storeDir, name))
  }
  await fsyncPath(storeDir)
  await fsyncPath(dataDir)
}
