/** What the console hands the view of its current tab. */
import type { AdminClient } from '../admin-client.js'
import type { Controls } from '../use-controls.js'

export interface ViewProps {
  client: AdminClient
  controls: Controls
  /** Whether the view gets the keys (not while a dialog, the help or the search box is open). */
  active: boolean
  /** Changes when the operator asks for fresh data (`g`). */
  refresh: number
  /** What the search box holds: the view lists only the rows where a column shows it. */
  filter: string
}

/** `2024-05-01T10:20:30.000Z` → `2024-05-01 10:20`. */
export const shortTime = (iso: unknown): string => (typeof iso === 'string' ? iso.slice(0, 16).replace('T', ' ') : '')

/** `2024-05-01T10:20:30.000Z` → `10:20:30` (times of today's live things). */
export const clockTime = (iso: unknown): string => (typeof iso === 'string' ? iso.slice(11, 19) : '')
