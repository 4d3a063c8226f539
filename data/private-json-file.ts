/**
 * A lowdb adapter for the data dir's JSON documents (config.json,
 * meta.json). Unlike lowdb's JSONFile it writes them readable by their owner
 * only (0600, as the rest of the data dir), through write-file-atomic so a
 * crash never leaves half a file, and it names the file and the place when
 * the JSON an operator edited is broken.
 */
import { readFile } from 'node:fs/promises'
import type { Adapter } from 'lowdb'
import writeFileAtomic from 'write-file-atomic'
import { DomainError } from './errors.js'
import { PRIVATE_FILE } from './store/file-modes.js'

/** `position N` of a JSON.parse message, as line and column (1-based). */
const whereIn = (text: string, message: string): string => {
  const position = /at position (\d+)/.exec(message)
  if (!position) return ''
  const before = text.slice(0, Number(position[1])).split('\n')
  return ` (line ${before.length}, column ${before[before.length - 1].length + 1})`
}

export class PrivateJsonFile<T> implements Adapter<T> {
  constructor(readonly path: string) {}

  /** The parsed document; `null` when the file does not exist. Throws `invalid` for broken JSON. */
  async read(): Promise<T | null> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
    try {
      return JSON.parse(text) as T
    } catch (err) {
      const message = (err as Error).message
      throw new DomainError('invalid', `${this.path} is not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}${whereIn(text, message)}`)
    }
  }

  async write(data: T): Promise<void> {
    await writeFileAtomic(this.path, JSON.stringify(data, null, 2) + '\n', { mode: PRIVATE_FILE })
  }
}
