/**
 * The file store at a given size: cold open (time, RSS), durable writes
 * (throughput and p99 with 100 transactions in flight) and the longest
 * event-loop stall while a snapshot is written under a light write load.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { mkdir, open } from 'node:fs/promises'
import { join } from 'node:path'
import { FileStore } from '../../../data/store/embedded/file-store.js'
import { MemoryTable } from '../../../data/store/embedded/memory-table.js'
import type { Row } from '../../../data/store/port.js'
import { schema, tableNames, type TableDef } from '../../../data/store/schema.js'
import { writeSnapshot } from '../../../data/store/embedded/snapshot.js'
import { postRow, userRow } from '../../fixtures/rows.js'
import { keepBusy } from '../latencies.js'
import { scaled, type BenchContext, type Measure, type Scenario } from '../scenario.js'

const IN_FLIGHT = 100
const WORDS = ['tea', 'svc', 'morning', 'walk', 'code', 'river', 'bread', 'news', 'music', 'rain', 'garden', 'train']

/** A small deterministic generator, so every run builds the same store. */
const random = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x7fffffff
}

const sentence = (next: () => number): string => Array.from({ length: 8 + Math.floor(next() * 14) }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ')

/** Builds a snapshot of `records` rows (1% users, the rest posts with replies, hashtags and mentions). */
async function buildStore(ctx: BenchContext, records: number): Promise<void> {
  const next = random(42)
  const tables = new Map<string, MemoryTable<Row>>()
  for (const name of tableNames) tables.set(name, new MemoryTable(name, schema[name] as TableDef<Row>))
  const users = tables.get('users')!
  const posts = tables.get('posts')!
  const userCount = Math.max(10, Math.floor(records / 100))
  for (let id = 1; id <= userCount; id++) users.apply({ ...userRow(`user${id}`), id } as Row)
  for (let id = 1; id <= records - userCount; id++) {
    const base = postRow(1 + Math.floor(next() * userCount), sentence(next), next() < 0.1 ? [WORDS[id % WORDS.length]] : [])
    const replyTo = id > 1 && next() < 0.2 ? 1 + Math.floor(next() * (id - 1)) : undefined
    const mention = next() < 0.05 ? 1 + Math.floor(next() * userCount) : undefined
    posts.apply({
      ...base,
      id,
      thread_id: replyTo === undefined ? id : (posts.get(replyTo) as unknown as { thread_id: number }).thread_id,
      ...(replyTo === undefined ? {} : { reply_to: replyTo }),
      entities: { ...base.entities, mentions: mention === undefined ? [] : [{ pos: 0, len: 8, name: `user${mention}`, id: String(mention) }] },
    } as Row)
    if (id % 200_000 === 0) ctx.log(`built ${id} posts`)
  }
  await mkdir(join(ctx.workDir, 'store'), { recursive: true })
  await writeSnapshot(join(ctx.workDir, 'store'), 1, tables)
}

const megabytes = (bytes: number): number => bytes / (1 << 20)

const collect = (): void => (globalThis as { gc?: () => void }).gc?.()

/** Counts fdatasync calls (by wrapping the FileHandle prototype) to report commits per fsync. */
async function countSyncs(dir: string): Promise<{ count: () => number }> {
  const probe = await open(join(dir, 'probe'), 'w')
  const proto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> }
  await probe.close()
  const original = proto.datasync
  let n = 0
  proto.datasync = function (this: unknown) {
    n++
    return original.call(this)
  }
  return { count: () => n }
}

export const storeAt = (records: number, label: string): Scenario => ({
  name: `store-${label}`,
  description: `file store holding ${label} records: cold open, durable writes (${IN_FLIGHT} in flight), snapshot stall`,
  prepare: (ctx) => buildStore(ctx, scaled(ctx, records, 1000)),
  async run(ctx): Promise<Measure[]> {
    collect()
    const rssBefore = process.memoryUsage().rss
    const opened = performance.now()
    const store = await FileStore.open(ctx.workDir, { compactBytes: Number.MAX_SAFE_INTEGER })
    const loadMs = performance.now() - opened
    collect()
    const memory = process.memoryUsage()
    const rows = Object.values(store.stats().rows).reduce((a, b) => a + b, 0)
    ctx.log(`opened ${rows} rows in ${loadMs.toFixed(0)} ms`)

    const syncs = await countSyncs(ctx.workDir)
    const writeOne = () => store.transact((tx) => tx.posts.insert(postRow(1, 'a durable hello from alice', ['svc'])))
    const total = scaled(ctx, 30_000, 1000)
    let started = 0
    const writes = await keepBusy(IN_FLIGHT, () => started++ >= total, writeOne)
    const syncCount = syncs.count()
    ctx.log(`${writes.latencies.count} durable writes in ${writes.elapsedMs.toFixed(0)} ms`)

    const stall = monitorEventLoopDelay({ resolution: 1 })
    let compacting = true
    const snapshotStarted = performance.now()
    stall.enable()
    const [, during] = await Promise.all([store.compact().finally(() => (compacting = false)), keepBusy(10, () => !compacting, writeOne)])
    stall.disable()
    const snapshotMs = performance.now() - snapshotStarted
    ctx.log(`snapshot in ${snapshotMs.toFixed(0)} ms, ${during.latencies.count} writes meanwhile`)
    await store.close()

    return [
      { name: 'rows', value: rows, unit: 'rows' },
      { name: 'cold open', value: loadMs, unit: 'ms' },
      { name: 'RSS after open', value: megabytes(memory.rss), unit: 'MB' },
      { name: 'RSS growth by open', value: megabytes(memory.rss - rssBefore), unit: 'MB' },
      { name: 'heap used after open', value: megabytes(memory.heapUsed), unit: 'MB' },
      { name: 'durable writes', value: (writes.latencies.count / writes.elapsedMs) * 1000, unit: 'writes/s' },
      { name: 'write p50 latency', value: writes.latencies.percentile(50), unit: 'ms' },
      { name: 'write p99 latency', value: writes.latencies.percentile(99), unit: 'ms' },
      { name: 'commits per fdatasync', value: writes.latencies.count / Math.max(1, syncCount), unit: 'commits' },
      { name: 'snapshot duration', value: snapshotMs, unit: 'ms' },
      { name: 'event-loop max stall during snapshot', value: stall.max / 1e6, unit: 'ms' },
      { name: 'event-loop p99 delay during snapshot', value: stall.percentile(99) / 1e6, unit: 'ms' },
      { name: 'write p99 latency during snapshot', value: during.latencies.percentile(99), unit: 'ms' },
    ]
  },
})
