/**
 * kill -9 under write load, then at once `svc serve` again on the same data
 * dir, over and over: every restart must take the data dir (the killed
 * server is a zombie, not a holder) and keep every write acknowledged before
 * the kill. Each server runs under `sh -c '... & exec sleep'`, whose shell
 * never reaps children, so each killed server really stays a zombie while
 * the next one starts. Used by test/e2e/restart.test.ts (a few cycles) and
 * test/bench/restart-under-load.ts (many).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../project-root.js'
import '../fixtures/child-env.js'
import { waitUntil } from '../fixtures/wait.js'
import { appTokenGrant } from './password-grant.js'

/** The `svc` command line of this checkout. */
export const SVC = join(ROOT, 'bin/svc.js')

const WORKERS = 8
/** Acknowledged writes per cycle before the kill; other workers' requests are still in flight. */
const KILL_AFTER_ACKS = 30

interface Unreaped {
  /** The server's own pid (the shell's child). */
  pid: number
  url: string
}

/**
 * `svc serve` under a shell that will never reap it, added to `shells` (to
 * be killed by the caller, whatever happens); resolves once it listens,
 * rejects with its stderr if it stops first.
 */
function serveUnreaped(dir: string, shells: ChildProcess[]): Promise<Unreaped> {
  const shell = spawn('sh', ['-c', `node "$SVC" serve --data-dir "$DIR" --port 0 --host 127.0.0.1 & echo $!; exec sleep 3600`], {
    env: { ...process.env, SVC, DIR: dir, SVC_RATE_LIMIT: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  shells.push(shell)
  let out = ''
  let err = ''
  return new Promise((resolve, reject) => {
    const look = () => {
      const listening = /listening on (http:\/\/[^\s:]+:\d+)/.exec(err)
      if (listening && out.includes('\n')) resolve({ pid: Number(out.split('\n')[0]), url: listening[1] })
      else if (/svc: (?!listening)/.test(err)) reject(new Error(`svc serve did not start: ${err.trim()}`))
    }
    shell.stdout!.setEncoding('utf8').on('data', (chunk: string) => ((out += chunk), look()))
    shell.stderr!.setEncoding('utf8').on('data', (chunk: string) => ((err += chunk), look()))
    shell.once('exit', () => reject(new Error(`the shell of svc serve exited: ${err.trim()}`)))
  })
}

const svcJson = (args: string[]): Promise<any> =>
  new Promise((resolve, reject) =>
    execFile('node', [SVC, ...args, '--json'], (error, stdout, stderr) => (error ? reject(new Error(stderr.trim())) : resolve(JSON.parse(stdout)))),
  )

export interface CycleResult {
  cycle: number
  acknowledged: number
  lost: number
  /** From the kill to the next server listening. */
  restartMs: number
}

/**
 * Runs `cycles` kill -9 and restart cycles on the data dir `dir` (made by
 * `svc init`); answers one result per cycle. Throws at the first restart
 * that is refused. The shells (and so the zombies) are gone when it returns.
 */
export async function restartCycles(dir: string, cycles: number, onCycle: (r: CycleResult) => void = () => {}): Promise<CycleResult[]> {
  const shells: ChildProcess[] = []
  try {
    let server = await serveUnreaped(dir, shells)
    const d = ['--data-dir', dir]
    const app = await svcJson(['app', 'create', '--name', 'Robo Client', ...d])

    const results: CycleResult[] = []
    for (let cycle = 1; cycle <= cycles; cycle++) {
      const acknowledged: string[] = []
      let killedAt = 0
      const target = server
      const worker = async () => {
        while (killedAt === 0) {
          try {
            const res = await appTokenGrant(target.url, app)
            if (res.status !== 200) throw new Error(`grant answered ${res.status}`)
            acknowledged.push(((await res.json()) as { access_token: string }).access_token)
          } catch (err) {
            if (killedAt === 0) throw err
            return
          }
          if (acknowledged.length >= KILL_AFTER_ACKS && killedAt === 0) {
            killedAt = Date.now()
            process.kill(target.pid, 'SIGKILL')
          }
        }
      }
      await Promise.all(Array.from({ length: WORKERS }, worker))
      // At once: the killed server is a zombie of its shell now.
      server = await serveUnreaped(dir, shells)
      const restartMs = Date.now() - killedAt
      let lost = 0
      for (const token of acknowledged) {
        const res = await fetch(`${server.url}/stream/0/token`, { headers: { authorization: `Bearer ${token}` } })
        if (res.status !== 200) lost++
      }
      const result = { cycle, acknowledged: acknowledged.length, lost, restartMs }
      results.push(result)
      onCycle(result)
    }
    process.kill(server.pid, 'SIGTERM')
    // The caller removes the data dir next: the last server must have written its last byte first.
    await exited(server.pid)
    return results
  } finally {
    for (const shell of shells) shell.kill('SIGKILL')
  }
}

/** Resolves once process `pid` has exited: gone, or a zombie (whose files are closed) of a shell that never reaps. */
async function exited(pid: number): Promise<void> {
  await waitUntil(() => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? true
    } catch {
      return true
    }
  }, `svc serve (process ${pid}) to exit`)
}
