/**
 * Garbage collection pauses of a node process started with `--trace-gc`,
 * read from the lines V8 prints on its stdout (one per collection: its kind
 * and its pause, "Scavenge ... MB, 1.2 / 0.0 ms"). Used to tell a pause
 * of the whole process from a slow request.
 */
import type { Readable } from 'node:stream'

export interface GcPause {
  /** `Scavenge`, `Mark-Compact`, ... as V8 names it. */
  kind: string
  /** The pause itself. */
  ms: number
  /** Incremental marking steps before it (also on the main thread, spread over earlier turns). */
  stepsMs: number
}

const LINE = /\d+ ms: ((?:Minor )?[A-Z][\w-]+(?: \(reduce\))?) .*?MB, ([\d.]+) \/ [\d.]+ ms(?:\s+\(\+ ([\d.]+) ms in)?/

/** Collects the pauses printed on `stdout` into the list it answers, as they come. */
export function collectGcPauses(stdout: Readable): GcPause[] {
  const pauses: GcPause[] = []
  let partial = ''
  stdout.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n')
    partial = lines.pop() ?? ''
    for (const line of lines) {
      const m = LINE.exec(line)
      if (m) pauses.push({ kind: m[1], ms: Number(m[2]), stepsMs: Number(m[3] ?? 0) })
    }
  })
  return pauses
}

/** What the pauses from index `from` on add up to (the total with the incremental steps, the longest without). */
export function gcSummary(pauses: readonly GcPause[], from: number): { totalMs: number; maxMs: number; major: number; count: number } {
  const window = pauses.slice(from)
  return {
    totalMs: window.reduce((sum, p) => sum + p.ms + p.stepsMs, 0),
    maxMs: window.reduce((max, p) => Math.max(max, p.ms), 0),
    major: window.filter((p) => p.kind.startsWith('Mark')).length,
    count: window.length,
  }
}
