/** Progress of a long command on stderr: a bar on a terminal, else a line every few seconds (a log, a pipe). */
import type { Io } from '../io.js'

/** Without a terminal, a progress line this often at most. */
const PROGRESS_LINE_MS = 5_000

export interface Progress {
  /** `done` of `total`, with the bar's other fields. */
  update(done: number, total: number, fields: Record<string, string | number>): void
  stop(): void
}

/**
 * `format` is cli-progress's (`{bar}`, `{percentage}`, `{eta_formatted}` and
 * the fields given to `update`); `line` says the same in words for a log.
 */
export async function progressReporter(
  io: Io,
  format: string,
  line: (done: number, total: number, fields: Record<string, string | number>) => string,
): Promise<Progress> {
  const stderr = io.stderr as Io['stderr'] & { isTTY?: boolean }
  if (stderr.isTTY === true) {
    // Loaded by the commands that show a bar, not with every start of svc.
    const { default: cliProgress } = await import('cli-progress')
    const bar = new cliProgress.SingleBar({ stream: stderr as NodeJS.WriteStream, format, hideCursor: true }, cliProgress.Presets.shades_classic)
    let started = false
    return {
      update(done, total, fields) {
        if (!started) bar.start(total, 0, fields)
        started = true
        bar.setTotal(total)
        bar.update(done, fields)
      },
      stop: () => started && bar.stop(),
    }
  }
  let last = Date.now()
  return {
    update(done, total, fields) {
      if (Date.now() - last < PROGRESS_LINE_MS) return
      last = Date.now()
      stderr.write(`svc: ${line(done, total, fields)}\n`)
    },
    stop: () => undefined,
  }
}
