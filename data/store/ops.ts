/**
 * The writes of a committed transaction, as both stores apply them: the
 * embedded store journals them as they are (one line of ops per
 * transaction), PostgreSQL turns them into statements.
 */
import type { Row } from './port.js'

/**
 * One op: put a whole row, delete a row by id, or delete every row below an
 * id (`r`, added with the event log: journals written before it hold only
 * `p` and `d`, and read as they always did).
 */
export type Op = ['p', string, Row] | ['d', string, number] | ['r', string, number]
