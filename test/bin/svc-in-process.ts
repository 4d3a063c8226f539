/**
 * Runs an `svc` command in this process, through the compiled `main` as
 * bin/svc.js does, on a stdin, stdout, stderr and environment of its own:
 * answers its exit code and what it printed, as `svcProcess` does for a
 * child process, without starting one. For every behaviour that does not
 * depend on the command being a process of its own (serve, signals, a
 * terminal, the lock between two processes: svc-process.ts).
 */
import { Readable } from 'node:stream'
import type { Io } from '../../bin/io.js'
import { main } from '../../bin/main.js'
import { type CliResult } from '../fixtures/svc-process.js'

export interface Surroundings {
  /** Variables added to this process's environment, for the command only. */
  env?: Record<string, string>
  /** What the command reads on standard input (not a terminal); empty by default. */
  stdin?: string
}

export async function svc(args: string[], { env = {}, stdin = '' }: Surroundings = {}): Promise<CliResult> {
  const printed = { stdout: '', stderr: '' }
  const io: Io = {
    stdin: Readable.from(stdin === '' ? [] : [stdin]),
    stdout: { write: (text) => (printed.stdout += text) },
    stderr: { write: (text) => (printed.stderr += text) },
    env: { ...process.env, ...env },
  }
  // main answers process.exitCode when a command set one: each command starts without, and the test's own is left as it was.
  const exitCode = process.exitCode
  process.exitCode = undefined
  try {
    const code = await main(['node', 'svc', ...args], io)
    return { code, ...printed }
  } finally {
    process.exitCode = exitCode
  }
}

/** `svc ... --json`, parsed; fails loudly when the command failed. */
export async function svcJson(args: string[]): Promise<any> {
  const r = await svc([...args, '--json'])
  if (r.code !== 0) throw new Error(`svc ${args.join(' ')} failed (${r.code}): ${r.stderr}`)
  return JSON.parse(r.stdout)
}
