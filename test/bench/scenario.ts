/**
 * A benchmark scenario. The runner gives each phase a fresh process (so one
 * scenario's heap, RSS and GC never colour another's) and a work dir shared
 * by the phases of that scenario and removed afterwards.
 *
 * `prepare` builds what `run` measures (for example a store of a million
 * records) and its time is not reported; `run` answers the measurements.
 */
export interface BenchContext {
  /** A directory for this scenario's files, shared by `prepare` and `run`. */
  workDir: string
  /** `BENCH_SCALE` (default 1): multiply record counts and durations by it for a quick smoke run. */
  scale: number
  /** Progress lines for the operator (stderr). */
  log(message: string): void
}

export interface Measure {
  name: string
  value: number
  unit: string
}

export interface Scenario {
  name: string
  description: string
  prepare?(ctx: BenchContext): Promise<void>
  run(ctx: BenchContext): Promise<Measure[]>
}

/** `n` scaled, never below `min`. */
export const scaled = (ctx: BenchContext, n: number, min = 1): number => Math.max(min, Math.round(n * ctx.scale))
