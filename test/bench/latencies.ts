/** Latency samples in milliseconds, with the percentiles the report prints. */
export class Latencies {
  private readonly samples: number[] = []

  add(ms: number): void {
    this.samples.push(ms)
  }

  /** Latencies measured elsewhere (another thread), from their samples. */
  static of(samples: readonly number[]): Latencies {
    const latencies = new Latencies()
    for (const ms of samples) latencies.samples.push(ms)
    return latencies
  }

  /** The samples, to hand to another thread. */
  toArray(): number[] {
    return [...this.samples]
  }

  get count(): number {
    return this.samples.length
  }

  /** The `p`-th percentile (0..100), nearest rank. */
  percentile(p: number): number {
    if (this.samples.length === 0) return NaN
    const sorted = [...this.samples].sort((a, b) => a - b)
    const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
    return sorted[rank]
  }
}

/** Keeps `inFlight` calls of `one` running until `until()` says stop; answers their latencies. */
export async function keepBusy(
  inFlight: number,
  until: () => boolean,
  one: () => Promise<unknown>,
): Promise<{ latencies: Latencies; errors: number; elapsedMs: number }> {
  const latencies = new Latencies()
  let errors = 0
  const started = performance.now()
  const lane = async (): Promise<void> => {
    while (!until()) {
      const start = performance.now()
      try {
        await one()
        latencies.add(performance.now() - start)
      } catch {
        errors++
      }
    }
  }
  await Promise.all(Array.from({ length: inFlight }, lane))
  return { latencies, errors, elapsedMs: performance.now() - started }
}
