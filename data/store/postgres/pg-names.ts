/**
 * How the store's tables and index keys are spelled in PostgreSQL. Each table
 * of the schema is two SQL tables: its rows (`svc_posts`: id, row as JSON
 * text, so key order and spelling come back as written) and its index
 * entries (`svc_posts_keys`: index name, key, id), whose B-tree answers every
 * window the port asks for.
 */
import type { Key } from '../port.js'

export const rowsTable = (table: string): string => `svc_${table}`
export const keysTable = (table: string): string => `svc_${table}_keys`

/**
 * Keys are strings or numbers, and 5 and '5' are different keys: the type is
 * the first letter. PostgreSQL text holds no NUL character, which a client
 * may send: `\` and NUL are escaped (`\\`, `\0`), so keys stay distinct.
 */
export const encodeKey = (key: Key): string => (typeof key === 'number' ? `n${key}` : `s${key.replace(/\\/g, '\\\\').replace(/\0/g, '\\0')}`)

/** The keys an index derives from a row, without repeats. */
export function keysOf(derived: Key | readonly Key[] | null | undefined): string[] {
  if (derived === null || derived === undefined) return []
  if (!Array.isArray(derived)) return [encodeKey(derived as Key)]
  return [...new Set((derived as readonly Key[]).map(encodeKey))]
}
