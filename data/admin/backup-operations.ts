/** The admin operation of backups: taken by the process that holds the store, so its files are read at one commit. */
import { invalid } from '../errors.js'
import type { AdminOperation } from './admin-operation.js'

export const backupOperations = {
  /** `{to}` (an absolute path, not there yet) → the backup written there: `{file, events_position, bytes}`. */
  'backup.create': async (domain, args, progress) => {
    if (typeof args.to !== 'string') throw invalid('to is required: the file to write the backup to')
    return domain.backups.create(args.to, progress)
  },
} satisfies Record<string, AdminOperation>
