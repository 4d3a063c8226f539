/**
 * Passwords kept off the command line: `svc user create` reads one from
 * standard input with --password-stdin, or asks at a terminal without echo.
 */
import t from 'tap'
import { execFile, spawn, spawnSync } from 'node:child_process'
import { openDomain } from '../../data/index.js'
import { svc } from './svc-in-process.js'
import { initDir } from '../fixtures/svc-process.js'
import { join } from 'node:path'
import { ROOT } from '../project-root.js'
import '../fixtures/child-env.js'

const SVC = join(ROOT, 'bin/svc.js')

/** `svc args...` in a process of its own, with `input` on its standard input. */
const svcWithInput = (args: string[], input: string): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    const child = execFile('node', [SVC, ...args], (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }))
    child.stdin!.end(input)
  })

/** Whether `username` signs in with `password` on the data dir. */
const signsIn = async (dir: string, username: string, password: string): Promise<boolean> => {
  const domain = await openDomain(dir)
  try {
    return (await domain.users.accounts.checkPassword(username, password)) !== null
  } finally {
    await domain.close()
  }
}

t.test('alice pipes her password with --password-stdin: the first line, without its newline', async (t) => {
  const dir = await initDir(t)
  const r = await svcWithInput(['user', 'create', '--username', 'alice', '--password-stdin', '--data-dir', dir, '--json'], 'correct horse\nignored\n')
  t.equal(r.code, 0, r.stderr)
  t.equal(JSON.parse(r.stdout).username, 'alice')
  t.ok(await signsIn(dir, 'alice', 'correct horse'))
})

t.test('without a password, a terminal or --password-stdin, user create says how to give one', async (t) => {
  const dir = await initDir(t)
  const none = await svc(['user', 'create', '--username', 'bob', '--data-dir', dir], { stdin: '' })
  t.not(none.code, 0)
  t.equal(none.stderr, 'svc: no password: give --password, pipe one with --password-stdin, or run at a terminal to be asked\n')
  const empty = await svc(['user', 'create', '--username', 'bob', '--password-stdin', '--data-dir', dir], { stdin: '' })
  t.not(empty.code, 0)
  t.equal(empty.stderr, 'svc: --password-stdin: standard input is empty\n')
  const both = await svc(['user', 'create', '--username', 'bob', '--password', 'correct horse', '--password-stdin', '--data-dir', dir], { stdin: 'x\n' })
  t.not(both.code, 0)
  t.match(both.stderr, /either --password or --password-stdin/)
})

const hasScript = spawnSync('script', ['--version']).status === 0

t.test('at a terminal carol is asked twice, and what she types is not echoed', { skip: !hasScript && 'needs script(1) for a pseudo-terminal' }, async (t) => {
  const dir = await initDir(t)
  // script(1) runs svc on a pseudo-terminal and copies everything the terminal shows to its stdout.
  const child = spawn('script', ['-qfec', `node ${SVC} user create --username carol --data-dir ${dir}`, '/dev/null'], { stdio: ['pipe', 'pipe', 'inherit'] })
  let screen = ''
  const seen = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const look = () => (screen.includes(text) ? resolve() : undefined)
      child.stdout.on('data', (chunk: Buffer) => ((screen += chunk.toString()), look()))
      child.once('exit', () => (screen.includes(text) ? resolve() : reject(new Error(`never saw ${text}: ${screen}`))))
      look()
    })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  await seen('password: ')
  child.stdin.write('carol secret\r')
  await seen('password again: ')
  child.stdin.write('carol secret\r')
  await seen('created user @carol')
  child.stdin.end()
  t.equal(await exited, 0)
  t.notMatch(screen, 'carol secret', 'the password never appears on the terminal')
  t.ok(await signsIn(dir, 'carol', 'carol secret'))
})
