/**
 * The embedded store: every table's ids and indexes in memory, its rows on
 * disk (read back from the line that last wrote them, through a bounded
 * cache), every commit appended to a journal and fsynced before it is
 * acknowledged, snapshots to keep the journal short. Layout of
 * `<data dir>/store`:
 *
 *   snapshot-N.jsonl   everything before journal-N (written by rename)
 *   journal-M.jsonl    transactions, one JSON line each, M >= N
 *   index.bin          ids, row places and indexes as of a clean close
 *                      (derived, used only while it matches the files)
 *
 * A commit: the transaction's work runs alone and buffers its writes; they
 * are serialised, checked against unique indexes and applied to the tables
 * together (undone together on a clash); the line is queued on the journal,
 * which fsyncs every queued line at once (group commit); once it is durable
 * the transaction's events go to the `onEvents` listeners, and only then
 * does `transact` resolve.
 *
 * A compaction: the journal moves on to journal-N+1 once every earlier line
 * is durable, the tables are written to snapshot-N+1 (tmp, fsync, rename,
 * fsync dir) in slices while commits go on into the new journal, then older
 * files are deleted.
 *
 * Opening recovers from a crash at any of those points: a leftover `.tmp`
 * snapshot is dropped (its journals are all still there), the newest
 * snapshot is loaded (or the index file, when it covers it), the journals
 * from it on are replayed, and a torn last line of the newest journal is
 * cut (it was never acknowledged).
 */
import { mkdir, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { DomainError } from '../../errors.js'
import { PRIVATE_DIR } from '../../disk/file-modes.js'
import { Journal } from './journal.js'
import { prefixHash, readIndexFile, removeIndexFile, writeIndexFile, type Coverage } from './index-file.js'
import { acquireLock } from '../lock.js'
import { MemoryTable, type Entry } from './memory-table.js'
import type { EventRow } from '../../model/event.js'
import { layoutOps } from './op-layout.js'
import type { EventsListener, Key, Range, Readers, Row, Store, StoreCheckpoint, StoreStats, TableReader, Tx } from '../port.js'
import type { Op } from '../ops.js'
import { applyOp, replayJournal } from './replay.js'
import { journalFile, RowFiles, snapshotFile } from './row-files.js'
import { MemoryReader, TxState, txOf } from './table-access.js'
import { schema, tableNames, type TableDef } from '../schema.js'
import { loadSnapshot, removeGradually, removeQuietly, writeSnapshot } from './snapshot.js'

export interface FileStoreOptions {
  /** Journal size that triggers a background snapshot. */
  compactBytes?: number
  /** Skip the data dir lock (the caller already holds it). */
  locked?: boolean
  /** Bytes of row JSON each table keeps parsed in memory (the rest are read from disk when asked for). */
  cacheBytes?: number
}

type Tables = Map<string, MemoryTable<Row>>

/** The events of one committed transaction, waiting for its line to be durable. */
interface EventBatch {
  rows: readonly EventRow[]
  /** Handed to the listeners, or dropped with a line that failed. */
  done: boolean
}

const numbered = (files: string[], prefix: string): number[] =>
  files
    .map((f) => new RegExp(`^${prefix}-(\\d+)\\.jsonl$`).exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b)

/**
 * Does the index file's coverage still describe these files: the same
 * snapshot, untouched, and the journal it was written at, the newest one,
 * with the part it covers unchanged?
 */
async function covers(dir: string, c: Coverage, snapshotNo: number, journals: number[]): Promise<boolean> {
  if (c.snapshot !== snapshotNo || journals[0] !== c.journal) return false
  if (snapshotNo > 0) {
    const snapshot = await stat(join(dir, `snapshot-${snapshotNo}.jsonl`))
    if (snapshot.size !== c.snapshotSize || Math.round(snapshot.mtimeMs) !== c.snapshotMtimeMs) return false
  }
  const journal = join(dir, `journal-${c.journal}.jsonl`)
  if ((await stat(journal)).size < c.journalBytes) return false
  return (await prefixHash(journal, c.journalBytes)) === c.journalSha256
}

export class FileStore implements Store {
  readonly read: Readers
  private chain: Promise<unknown> = Promise.resolve()
  private compacting: Promise<void> | null = null
  private followUp: Promise<void> | null = null
  private journalNo: number
  private lastCompactionMs: number | null = null
  /** The newest snapshot's number; 0 while there is none. */
  private snapshotNo = 0
  private closed = false
  /** Checkpoints under way: no compaction starts, and one already started leaves the older files in place until none is. */
  private pins = 0
  private unpinned: (() => void)[] = []
  private readonly eventListeners = new Set<EventsListener>()
  /** Batches of committed transactions not yet handed on, in commit (and so seq) order. */
  private readonly undelivered: EventBatch[] = []

  private constructor(
    private readonly dir: string,
    private readonly files: RowFiles,
    private readonly tables: Tables,
    private journal: Journal,
    journalNo: number,
    private readonly release: () => void,
    private readonly compactBytes: number,
  ) {
    this.journalNo = journalNo
    const read: Record<string, TableReader<Row>> = {}
    for (const [name, table] of tables) read[name] = new MemoryReader(table)
    this.read = read as unknown as Readers
  }

  /** Opens (creating if needed) the store of `dataDir`, recovering from a crash. */
  static async open(dataDir: string, options: FileStoreOptions = {}): Promise<FileStore> {
    const dir = join(dataDir, 'store')
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR })
    const release = options.locked ? () => {} : acquireLock(dataDir)
    try {
      const tables: Tables = new Map()
      const rowFiles = new RowFiles(dir)
      for (const name of tableNames) tables.set(name, new MemoryTable(name, schema[name] as TableDef<Row>, rowFiles, options.cacheBytes))
      const files = await readdir(dir)
      // A compaction interrupted before its rename leaves only a tmp file.
      for (const f of files.filter((f) => f.endsWith('.tmp'))) await removeQuietly(join(dir, f))
      const snapshots = numbered(files, 'snapshot')
      const base = snapshots.length > 0 ? snapshots[snapshots.length - 1] : 1
      const snapshotNo = snapshots.length > 0 ? base : 0
      const journals = numbered(files, 'journal').filter((n) => n >= base)
      const index = await readIndexFile(dir, (c) => covers(dir, c, snapshotNo, journals))
      if (index) {
        for (const [name, state] of index.tables) tables.get(name)?.importState(state)
      } else if (snapshots.length > 0) await loadSnapshot(join(dir, `snapshot-${base}.jsonl`), snapshotFile(base), tables)
      for (const [i, n] of journals.entries()) {
        if (index && n < index.coverage.journal) continue
        const from = index && n === index.coverage.journal ? index.coverage.journalBytes : 0
        await replayJournal(join(dir, `journal-${n}.jsonl`), journalFile(n), tables, i === journals.length - 1, from)
      }
      const current = journals.length > 0 ? journals[journals.length - 1] : base
      for (const n of numbered(files, 'journal').filter((n) => n < base)) await removeQuietly(join(dir, `journal-${n}.jsonl`))
      for (const n of snapshots.filter((n) => n < base)) await removeQuietly(join(dir, `snapshot-${n}.jsonl`))
      const journal = await Journal.open(join(dir, `journal-${current}.jsonl`))
      const store = new FileStore(dir, rowFiles, tables, journal, current, release, options.compactBytes ?? 64 * 1024 * 1024)
      store.snapshotNo = snapshotNo
      return store
    } catch (err) {
      release()
      throw err
    }
  }

  transact<T>(work: (tx: Tx) => Promise<T> | T): Promise<T> {
    if (this.closed) return Promise.reject(new DomainError('unavailable', 'the store is closed'))
    // Transactions run one after another; only their fsync waits are shared.
    // The next one starts as soon as this one is applied in memory, before it
    // is durable: it lands in the same or a later journal batch, so nothing
    // can become durable ahead of what it read.
    const run = this.chain.then(async () => {
      this.refuseIfBroken()
      const state = new TxState(this.tables)
      let result: T
      try {
        result = await work(txOf(state))
      } finally {
        state.open = false
      }
      const ops = state.ops
      if (ops.length === 0) return { result, durable: null, batch: null, settle: null }
      this.refuseIfBroken()
      // Serialise first: a row that cannot be written must not reach the tables.
      const layout = layoutOps(ops)
      this.commit(ops)
      const batch: EventBatch | null = state.events.length > 0 ? { rows: state.events, done: false } : null
      if (batch) this.undelivered.push(batch)
      const file = journalFile(this.journalNo)
      const start = this.journal.end
      const durable = this.journal.append(layout.line, layout.bytes)
      const settle = (): void => {
        for (const [i, op] of ops.entries()) {
          const at = layout.rows[i]
          if (op[0] === 'p' && at) this.table(op[1]).settle(op[2], { file, offset: start + at[0], length: at[1] })
        }
      }
      return { result, durable, batch, settle }
    })
    this.chain = run.catch(() => undefined)
    return run.then(async ({ result, durable, batch, settle }) => {
      if (durable) {
        await durable.catch((err: unknown) => {
          if (batch) this.dropEvents(batch)
          throw new DomainError('unavailable', `the store could not write its journal: ${(err as Error).message}`, { cause: err })
        })
        settle()
        if (batch) this.deliverThrough(batch)
        this.maybeCompact()
      }
      return result
    })
  }

  onEvents(listener: EventsListener): () => void {
    this.eventListeners.add(listener)
    return () => this.eventListeners.delete(listener)
  }

  /**
   * Hands on every batch up to `batch`. The journal writes lines in commit
   * order, so once this line is durable every earlier one is too: an earlier
   * batch whose own continuation has not run yet goes first, keeping seq order.
   */
  private deliverThrough(batch: EventBatch): void {
    while (!batch.done) {
      const next = this.undelivered.shift() as EventBatch
      next.done = true
      for (const listener of [...this.eventListeners]) {
        try {
          listener(next.rows)
        } catch (err) {
          process.emitWarning(`svc: event listener failed: ${(err as Error).message}`)
        }
      }
    }
  }

  /** A line that never became durable: its events never happened (and the journal refuses everything after it). */
  private dropEvents(batch: EventBatch): void {
    batch.done = true
    const at = this.undelivered.indexOf(batch)
    if (at !== -1) this.undelivered.splice(at, 1)
  }

  /**
   * A journal that failed to write or fsync holds an unknown tail, and the
   * tables may hold changes it never made durable: refuse every later write
   * until a restart replays what is really on disk.
   */
  private refuseIfBroken(): void {
    const failure = this.journal.failure
    if (failure) {
      throw new DomainError('unavailable', `the store stopped writing after a journal error (restart svc): ${(failure as Error).message}`)
    }
  }

  private table(name: string): MemoryTable<Row> {
    return this.tables.get(name) as MemoryTable<Row>
  }

  /** Applies buffered ops to the tables, all or none. */
  private commit(ops: Op[]): void {
    const undo: [MemoryTable<Row>, Entry<Row>][] = []
    try {
      for (const op of ops) {
        const table = this.table(op[1])
        if (op[0] === 'r') {
          for (const entry of table.removeBelow(op[2])) undo.push([table, entry])
          if (op[2] - 1 > table.seq) table.seq = op[2] - 1
          continue
        }
        if (op[0] === 'p') {
          const clash = table.uniqueClash(op[2])
          if (clash) throw new DomainError('conflict', `${op[1]}: duplicate ${clash}`)
        }
        undo.push([table, table.entry(op[0] === 'p' ? op[2].id : op[2])])
        applyOp(this.tables, op)
      }
    } catch (err) {
      for (const [table, entry] of undo.reverse()) table.restore(entry)
      throw err
    }
  }

  private maybeCompact(): void {
    if (this.compacting || this.closed || this.pins > 0 || this.journal.bytes < this.compactBytes) return
    this.compact().catch((err) => {
      process.emitWarning(`svc: snapshot failed: ${(err as Error).message}`)
    })
  }

  /**
   * Resolves once a snapshot covers every commit acknowledged before the
   * call. A compaction already under way switched journals before this call,
   * so it is followed by one more (shared by every caller that asks meanwhile).
   */
  compact(): Promise<void> {
    if (this.closed) return Promise.reject(new DomainError('unavailable', 'the store is closed'))
    if (!this.compacting) return this.startCompaction()
    this.followUp ??= this.compacting
      .catch(() => undefined)
      .then(() => {
        this.followUp = null
        return this.closed ? undefined : this.startCompaction()
      })
    return this.followUp
  }

  private startCompaction(): Promise<void> {
    this.compacting = this.runCompaction().finally(() => {
      this.compacting = null
    })
    return this.compacting
  }

  private async runCompaction(): Promise<void> {
    const started = Date.now()
    const next = this.journalNo + 1
    // Lines appended from this call on go to the new journal: their rows must be looked for there.
    const switched = this.journal.switchTo(join(this.dir, `journal-${next}.jsonl`))
    this.journalNo = next
    await switched
    await writeSnapshot(this.dir, next, this.tables, this.files)
    this.snapshotNo = next
    // Every row is now read from the new snapshot or the new journal; the index file points into the old ones.
    await removeIndexFile(this.dir)
    this.files.closeBelow(snapshotFile(next))
    // A checkpoint may be taking hold of the older files: they go once it has.
    while (this.pins > 0) await new Promise<void>((resolve) => this.unpinned.push(resolve))
    const files = await readdir(this.dir)
    for (const n of numbered(files, 'journal').filter((n) => n < next)) await removeGradually(join(this.dir, `journal-${n}.jsonl`))
    for (const n of numbered(files, 'snapshot').filter((n) => n < next)) await removeGradually(join(this.dir, `snapshot-${n}.jsonl`))
    this.lastCompactionMs = Date.now() - started
  }

  /** Each table's last id handed out (removed ids included): what a copy of the store must go on from. */
  lastIds(): Record<string, number> {
    const ids: Record<string, number> = {}
    for (const [name, table] of this.tables) ids[name] = table.seq
    return ids
  }

  async checkpoint<T>(work: (point: StoreCheckpoint) => Promise<T>): Promise<T> {
    if (this.closed) throw new DomainError('unavailable', 'the store is closed')
    // A compaction under way finishes first, outside the commit chain, so writes never wait on a snapshot being written.
    while (this.compacting) await this.compacting.catch(() => undefined)
    this.pins++
    try {
      const run = this.chain.then(async () => {
        this.refuseIfBroken()
        await this.journal.drain()
        const files: StoreCheckpoint['files'] = []
        const size = async (name: string) => (await stat(join(this.dir, name))).size
        if (this.snapshotNo > 0) {
          const name = `snapshot-${this.snapshotNo}.jsonl`
          files.push({ name, bytes: await size(name) })
        }
        for (const n of numbered(await readdir(this.dir), 'journal').filter((n) => n >= this.snapshotNo && n <= this.journalNo)) {
          const name = `journal-${n}.jsonl`
          files.push({ name, bytes: n === this.journalNo ? this.journal.end : await size(name) })
        }
        return work({ dir: this.dir, files, lastIds: this.lastIds() })
      })
      this.chain = run.catch(() => undefined)
      return await run
    } finally {
      this.pins--
      if (this.pins === 0) for (const resolve of this.unpinned.splice(0)) resolve()
    }
  }

  async ping(): Promise<void> {
    if (this.closed) throw new DomainError('unavailable', 'the store is closed')
  }

  stats(): StoreStats {
    const rows: Record<string, number> = {}
    for (const [name, table] of this.tables) rows[name] = table.size
    return { rows, journalBytes: this.journal.bytes, snapshots: this.journalNo, lastCompactionMs: this.lastCompactionMs }
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.chain
    if (this.compacting) await this.compacting.catch(() => undefined)
    if (this.followUp) await this.followUp.catch(() => undefined)
    await this.journal.close()
    await this.writeIndex()
    this.files.closeAll()
    this.release()
  }

  /** Leaves an index file for the next open, if every row's place is known. */
  private async writeIndex(): Promise<void> {
    if (this.journal.failure) return
    const states = new Map<string, NonNullable<ReturnType<MemoryTable<Row>['exportState']>>>()
    for (const [name, table] of this.tables) {
      const state = table.exportState()
      if (!state) return
      states.set(name, state)
    }
    const write = async (): Promise<void> => {
      const snapshot = this.snapshotNo > 0 ? await stat(join(this.dir, `snapshot-${this.snapshotNo}.jsonl`)) : null
      const journalBytes = this.journal.bytes
      await writeIndexFile(
        this.dir,
        {
          snapshot: this.snapshotNo,
          snapshotSize: snapshot?.size ?? 0,
          snapshotMtimeMs: Math.round(snapshot?.mtimeMs ?? 0),
          journal: this.journalNo,
          journalBytes,
          journalSha256: await prefixHash(join(this.dir, `journal-${this.journalNo}.jsonl`), journalBytes),
        },
        states,
      )
    }
    await write().catch((err: unknown) => {
      process.emitWarning(`svc: could not write the store's index file (the next start reads every row): ${(err as Error).message}`)
    })
  }
}

export type { Key, Range }
