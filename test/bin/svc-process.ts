/**
 * Runs the real `svc` command line (`node bin/svc.js`, the compiled CLI) as a
 * child process, and `svc serve` as a long-running one: for what depends on
 * a process of its own (a server, signals, a terminal, stdin, the lock
 * between processes, the installed entry point). Other commands run in the
 * test's process (svc-in-process.ts).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { initDataDir } from '../../data/index.js'
import { ROOT } from '../project-root.js'
import '../fixtures/child-env.js'

/** The CLI entry point, for a test that runs it in a terminal of its own (tmux). */
export const SVC = join(ROOT, 'bin/svc.js')

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/** `svc args...` in a process of its own. */
export const svcProcess = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
  new Promise((resolve) => {
    execFile('node', [SVC, ...args], { env: { ...process.env, ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0
      resolve({ code, stdout, stderr })
    })
  })

/** `svc ... --json` in a process of its own, parsed; fails loudly when the command failed. */
export async function svcJson(args: string[]): Promise<any> {
  const r = await svcProcess([...args, '--json'])
  if (r.code !== 0) throw new Error(`svc ${args.join(' ')} failed (${r.code}): ${r.stderr}`)
  return JSON.parse(r.stdout)
}

export const tempDir = (t: { teardown(fn: () => unknown): void }): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A data dir made by `svc init` in a fresh temp dir, as an operator starts. */
export async function initDir(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const dir = join(tempDir(t), 'svc-data')
  // What `svc init` does, without a process of its own: test/bin/data-dir.test.ts runs the command itself.
  await initDataDir(dir)
  return dir
}

export interface Serving {
  child: ChildProcess
  url: string
  stderr: () => string
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>
}

/** Starts `svc serve` on `dir` on a free port (with `flags` more, rate limits off unless `env` says otherwise); resolves once it listens. */
export function serve(dir: string, flags: string[] = [], env: Record<string, string> = {}): Promise<Serving> {
  const child = spawn('node', [SVC, 'serve', '--data-dir', dir, '--port', '0', '--host', '127.0.0.1', ...flags], {
    env: { ...process.env, SVC_RATE_LIMIT: 'off', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let seen = ''
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8')
    child.stderr!.on('data', (chunk: string) => {
      seen += chunk
      const m = /listening on (http:\/\/[^\s:]+:\d+)/.exec(seen)
      if (m) resolve({ child, url: m[1], stderr: () => seen, stop: () => (child.kill('SIGTERM'), exited) })
    })
    void exited.then((code) => reject(new Error(`svc serve exited (${code}): ${seen}`)))
  })
}
