/**
 * The data dir lock against a killed holder that is not gone yet: a process
 * killed with -9 stays a zombie until its parent reaps it, and the next
 * start must not wait for that.
 */
import t from 'tap'
import { waitUntil } from '../../fixtures/wait.js'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { FileStore } from '../../../data/store/embedded/file-store.js'
import { lockHolder } from '../../../data/store/lock.js'
import '../../fixtures/child-env.js'

const fileStore = new URL('../../../data/store/embedded/file-store.js', import.meta.url).href

const stateOf = (pid: number): string | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
  } catch {
    return null
  }
}

const until = (what: string, ok: () => boolean): Promise<void> => waitUntil(ok, what)

t.test(
  'a store held by a process that was killed but not reaped (a zombie) opens again',
  { skip: stateOf(process.pid) === null && 'needs /proc' },
  async (t) => {
    const dir = t.testdir()
    // Alice's holder opens the store, then its parent shell becomes `sleep`,
    // which never waits for children: once killed, the holder stays a zombie.
    const holder = `const { FileStore } = await import(${JSON.stringify(fileStore)}); await FileStore.open(${JSON.stringify(dir)}); console.log('held'); setInterval(() => {}, 1000)`
    const shell = spawn('sh', ['-c', `node --input-type=module -e "$HOLDER" & echo $!; exec sleep 60`], {
      env: { ...process.env, HOLDER: holder },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    t.teardown(() => shell.kill('SIGKILL'))
    let out = ''
    shell.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
    await until('the holder to take the lock', () => out.includes('held'))
    const pid = Number(out.split('\n')[0])
    t.equal(lockHolder(dir), pid, 'the live holder owns the data dir')

    process.kill(pid, 'SIGKILL')
    await until('the holder to become a zombie', () => stateOf(pid) === 'Z')
    t.doesNotThrow(() => process.kill(pid, 0), 'kill(pid, 0) still answers for the zombie')
    t.equal(lockHolder(dir), null, 'but it holds nothing')

    const store = await FileStore.open(dir)
    t.match(readFileSync(join(dir, 'svc.lock'), 'utf8'), new RegExp(`^${process.pid}\\b`), 'the next start takes the lock over')
    await store.close()
  },
)
