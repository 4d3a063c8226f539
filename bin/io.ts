/**
 * What a command reads and writes besides its arguments: standard input,
 * standard output and error, and the environment. `main` runs on the
 * process's own unless given others (tests run commands in their process
 * this way, reading what a command printed without spawning one).
 */
import type { Readable } from 'node:stream'

/** Where a command's text goes. */
export interface Sink {
  write(text: string): unknown
}

export interface Io {
  /** Standard input; `isTTY` when it is a terminal (the password prompt and the console need one). */
  readonly stdin: Readable & { isTTY?: boolean }
  readonly stdout: Sink
  readonly stderr: Sink
  readonly env: NodeJS.ProcessEnv
}

/** The process's own streams and environment, looked up when used (Node creates `process.stdin` on first use). */
export const processIo: Io = {
  get stdin() {
    return process.stdin
  },
  get stdout() {
    return process.stdout
  },
  get stderr() {
    return process.stderr
  },
  get env() {
    return process.env
  },
}
