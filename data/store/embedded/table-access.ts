/**
 * The port's table interfaces over memory tables. A transaction's writers are
 * made on first use of each table, from classes whose methods live on their
 * prototypes: a transaction touching one table allocates two small objects,
 * not closures for all sixteen (that showed up as the largest cost of a
 * durable write).
 */
import type { EventRow } from '../../model/event.js'
import { lazyTx } from '../lazy-tx.js'
import type { MemoryTable } from './memory-table.js'
import type { Key, Range, Row, TableReader, TableWriter, Tx } from '../port.js'
import type { Op } from '../ops.js'

export class MemoryReader<R extends Row> implements TableReader<R> {
  constructor(protected readonly table: MemoryTable<R>) {}

  async get(id: number): Promise<R | null> {
    return this.table.get(id)
  }

  async getMany(ids: readonly number[]): Promise<R[]> {
    const rows: R[] = []
    for (const id of ids) {
      const row = this.table.get(id)
      if (row) rows.push(row)
    }
    return rows
  }

  async one(index: string, key: Key): Promise<R | null> {
    return this.table.one(index, key)
  }

  async ids(index: string, key: Key, range: Range): Promise<number[]> {
    return this.table.ids(index, key, range)
  }

  async idsAny(index: string, keys: readonly Key[], range: Range): Promise<number[]> {
    return this.table.idsAny(index, keys, range)
  }

  async count(index: string, key: Key): Promise<number> {
    return this.table.count(index, key)
  }

  async scan(range: Range, match?: (row: R) => boolean): Promise<number[]> {
    return this.table.scan(range, match)
  }

  async size(): Promise<number> {
    return this.table.size
  }
}

/** One transaction: its buffered ops, the events among them, and whether its work is still running. */
export class TxState {
  readonly ops: Op[] = []
  readonly events: EventRow[] = []
  open = true
  readonly writers = new Map<string, TableWriter<Row>>()

  constructor(readonly tables: ReadonlyMap<string, MemoryTable<Row>>) {}
}

class MemoryWriter<R extends Row> extends MemoryReader<R> implements TableWriter<R> {
  constructor(
    table: MemoryTable<R>,
    private readonly tx: TxState,
  ) {
    super(table)
  }

  private buffer(op: Op): void {
    // A writer kept past its transaction would otherwise lose writes silently.
    if (!this.tx.open) throw new Error(`write to ${this.table.name} after its transaction ended`)
    this.tx.ops.push(op)
  }

  insert(row: Omit<R, 'id'>): R {
    if (!this.tx.open) throw new Error(`write to ${this.table.name} after its transaction ended`)
    const full = { ...row, id: ++this.table.seq } as R
    this.buffer(['p', this.table.name, full])
    return full
  }

  put(row: R): R {
    this.buffer(['p', this.table.name, row])
    return row
  }

  remove(id: number): void {
    this.buffer(['d', this.table.name, id])
  }

  removeBelow(id: number): void {
    this.buffer(['r', this.table.name, id])
  }
}

/** The `Tx` of one transaction: each table's writer is made when first touched. */
export const txOf: (state: TxState) => Tx = lazyTx<TxState>((state, table) => new MemoryWriter(state.tables.get(table) as MemoryTable<Row>, state))
