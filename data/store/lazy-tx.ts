/**
 * The `Tx` both stores hand to a transaction's work: a property per table
 * whose writer is made on first use (a transaction touching one table makes
 * one writer, not one per table), and `emit`, which inserts into `event_log`
 * and keeps the row for the listeners.
 */
import type { DomainEvents, EventName, EventRow } from '../model/event.js'
import type { Row, TableWriter, Tx } from './port.js'
import { tableNames } from './schema.js'

/** What a store keeps per transaction for the `Tx`. */
export interface TxWriters {
  readonly writers: Map<string, TableWriter<Row>>
  readonly events: EventRow[]
}

/** A `Tx` factory over `S`, making a table's writer with `writerOf` when first asked. */
export function lazyTx<S extends TxWriters>(writerOf: (state: S, table: string) => TableWriter<Row>): (state: S) => Tx {
  class LazyTx {
    constructor(readonly state: S) {}

    emit<N extends EventName>(name: N, payload: DomainEvents[N]): void {
      const writer = (this as unknown as Tx).event_log
      this.state.events.push(writer.insert({ name, at: Date.now(), payload } as Omit<EventRow, 'id'>))
    }
  }
  for (const name of tableNames) {
    Object.defineProperty(LazyTx.prototype, name, {
      get(this: LazyTx) {
        let writer = this.state.writers.get(name)
        if (!writer) {
          writer = writerOf(this.state, name)
          this.state.writers.set(name, writer)
        }
        return writer
      },
    })
  }
  return (state) => new LazyTx(state) as unknown as Tx
}
