/** The store contract run against file stores opened with `options`, each in a fresh dir, reopened in the same one. */
import { mkdtempSync } from 'node:fs'
import { join } from 'node:path'
import { FileStore, type FileStoreOptions } from '../../../../data/store/embedded/file-store.js'
import { storeContract } from '../contract.js'

type Tap = Parameters<typeof storeContract>[0]

export function fileStoreContract(t: Tap, options: FileStoreOptions = {}): void {
  const root = t.testdir()
  const dirs = new Map<unknown, string>()
  const openAt = async (dir: string) => {
    const store = await FileStore.open(dir, options)
    dirs.set(store, dir)
    return store
  }
  storeContract(
    t,
    () => openAt(mkdtempSync(join(root, 'store-'))),
    async (store) => {
      await store.close()
      return openAt(dirs.get(store) as string)
    },
  )
}
