/** fsync by path: for a file just written, or a directory whose entries (a created or renamed file) must survive a crash. */
import { open } from 'node:fs/promises'

export async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
