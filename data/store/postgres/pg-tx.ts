/**
 * One transaction on PostgreSQL: its work reads through the transaction's
 * connection (the state before its own writes, as the port says) and
 * buffers its writes; ids come from the counters read when it began, under
 * the write lock, so `insert` answers at once and ids follow commit order.
 */
import type { TransactionSql } from 'postgres'
import type { EventRow } from '../../model/event.js'
import { lazyTx } from '../lazy-tx.js'
import type { Row, TableWriter, Tx } from '../port.js'
import type { Op } from '../ops.js'
import { schema, type TableDef } from '../schema.js'
import { PgReader } from './pg-reader.js'

export class PgTxState {
  readonly ops: Op[] = []
  readonly events: EventRow[] = []
  open = true
  readonly writers = new Map<string, TableWriter<Row>>()

  constructor(
    readonly sql: TransactionSql,
    /** Each table's last id handed out, as read under the write lock and raised by this transaction. */
    readonly lastIds: Map<string, number>,
  ) {}
}

class PgWriter<R extends Row> extends PgReader<R> implements TableWriter<R> {
  constructor(
    private readonly tx: PgTxState,
    name: string,
  ) {
    super(tx.sql, name, schema[name as keyof typeof schema] as unknown as TableDef<R>)
  }

  private buffer(op: Op): void {
    // A writer kept past its transaction would otherwise lose writes silently.
    if (!this.tx.open) throw new Error(`write to ${this.name} after its transaction ended`)
    this.tx.ops.push(op)
  }

  insert(row: Omit<R, 'id'>): R {
    if (!this.tx.open) throw new Error(`write to ${this.name} after its transaction ended`)
    const id = (this.tx.lastIds.get(this.name) ?? 0) + 1
    this.tx.lastIds.set(this.name, id)
    const full = { ...row, id } as R
    this.buffer(['p', this.name, full])
    return full
  }

  put(row: R): R {
    this.buffer(['p', this.name, row])
    return row
  }

  remove(id: number): void {
    this.buffer(['d', this.name, id])
  }

  removeBelow(id: number): void {
    this.buffer(['r', this.name, id])
  }
}

/** The `Tx` of one transaction: each table's writer is made when first touched. */
export const pgTxOf: (state: PgTxState) => Tx = lazyTx<PgTxState>((state, table) => new PgWriter(state, table))
