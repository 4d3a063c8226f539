/**
 * A lowdb adapter for the data dir's JSON documents (config.json,
 * meta.json). Unlike lowdb's JSONFile it writes them readable by their owner
 * only (0600, as the rest of the data dir), through write-file-atomic so a
 * crash never leaves half a file, and it names the file and the place when
 * the JSON an operator edited is broken.
 */
import { readFile } from 'node:fs/promises'
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser'
import type { Adapter } from 'lowdb'
import writeFileAtomic from 'write-file-atomic'
import { DomainError } from '../errors.js'
import { PRIVATE_FILE } from './file-modes.js'

/** Offset `offset` of `text` as line and column (1-based). */
const lineAndColumn = (text: string, offset: number): string => {
  const before = text.slice(0, offset).split('\n')
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`
}

/**
 * What is wrong with JSON that does not parse, and where: jsonc-parser,
 * held to strict JSON, tells the place of the first error, which
 * JSON.parse's messages often leave out.
 */
const firstError = (text: string): string => {
  const errors: ParseError[] = []
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false })
  if (errors.length === 0) return 'it does not parse'
  const what = printParseErrorCode(errors[0].error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
  return `${what} at ${lineAndColumn(text, errors[0].offset)}`
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
    } catch {
      throw new DomainError('invalid', `${this.path} is not valid JSON: ${firstError(text)}`)
    }
  }

  async write(data: T): Promise<void> {
    await writeFileAtomic(this.path, JSON.stringify(data, null, 2) + '\n', { mode: PRIVATE_FILE })
  }
}
