/**
 * Numbered migrations of the data dir, in order. Migration N takes a data dir
 * of format N-1 to format N; `migrateDataDir` runs the ones a dir is missing,
 * recording the format after each, so an interrupted run resumes where it
 * stopped. A migration must tolerate being run again on its own output.
 *
 * Add one by appending to the list and raising nothing else: the current
 * format is the last version here.
 */
import { initialLayout } from './001-initial-layout.js'

export interface Migration {
  version: number
  description: string
  up(dataDir: string): Promise<void>
}

export const migrations: readonly Migration[] = [
  { version: 1, description: 'format recorded in meta.json; store files in store/, images in images/', up: initialLayout },
]
