/**
 * Format 0 is a data dir written before formats were recorded: no
 * meta.json. Format 1 keeps the store's files in `store/` and user images in
 * `images/`. Store files found at the top of the data dir (a store copied in
 * by hand) are moved into `store/`; one that would replace a file already
 * there stops the migration instead (the backup holds both).
 */
import { access, mkdir, readdir, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { PRIVATE_DIR } from '../../disk/file-modes.js'
import { fsyncPath } from '../../disk/fsync.js'

const STORE_FILE = /^(journal|snapshot)-\d+\.jsonl$/

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  )

export async function initialLayout(dataDir: string): Promise<void> {
  const storeDir = join(dataDir, 'store')
  await mkdir(storeDir, { recursive: true, mode: PRIVATE_DIR })
  await mkdir(join(dataDir, 'images'), { recursive: true, mode: PRIVATE_DIR })
  for (const name of await readdir(dataDir)) {
    if (!STORE_FILE.test(name)) continue
    if (await exists(join(storeDir, name))) {
      throw new Error(`both ${name} and store/${name} exist in ${dataDir}: keep one of them, then run \`svc migrate\` again`)
    }
    await rename(join(dataDir, name), join(storeDir, name))
  }
  await fsyncPath(storeDir)
  await fsyncPath(dataDir)
}
