/**
 * Which data dir a command works on, as an operator meets it: only `init`
 * and `serve` make one, every other command refuses a missing one, and a
 * command that changes data names the dir it used on stderr. The commands
 * run in this process, but for the story of what a process prints on its
 * own stdout and stderr, which runs bin/svc.js.
 */
import t from 'tap'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { svc } from './svc-in-process.js'
import { initDir, serve, svcProcess, tempDir } from '../fixtures/svc-process.js'

t.test('alice mistypes the data dir: every command but init and serve refuses it and creates nothing', async (t) => {
  const dir = join(tempDir(t), 'svc-dta')
  for (const args of [
    ['migrate'],
    ['app', 'create', '--name', 'Patter'],
    ['app', 'list'],
    ['user', 'create', '--username', 'alice', '--password', 'correct horse'],
    ['user', 'list'],
    ['token', 'list'],
    ['token', 'revoke', 'abc'],
    ['explore', 'list'],
    ['console'],
  ]) {
    const r = await svc([...args, '--data-dir', dir])
    t.not(r.code, 0, args.join(' '))
    t.equal(r.stderr, `svc: no svc data dir at ${dir}: run svc init\n`, `${args.join(' ')}: one line naming the dir and the fix`)
    t.equal(r.stdout, '')
    t.notOk(existsSync(dir), 'nothing was created')
  }
})

t.test('an empty dir is not a data dir either', async (t) => {
  const dir = tempDir(t)
  const r = await svc(['user', 'list', '--data-dir', dir])
  t.not(r.code, 0)
  t.match(r.stderr, `no svc data dir at ${dir}: run svc init`)
})

t.test('commands that change data name the data dir on stderr, and --json keeps stdout to one JSON value', async (t) => {
  // Processes of their own: nothing else in the process (a library, a warning) may print either.
  const dir = join(tempDir(t), 'svc-data')
  const init = await svcProcess(['init', '--data-dir', dir, '--json'])
  t.equal(init.stderr, `svc: created data dir ${dir} (format 1)\n`)
  t.same(JSON.parse(init.stdout), { data_dir: dir, created: true, format: 1 })

  const created = await svcProcess(['user', 'create', '--username', 'alice', '--password', 'correct horse', '--data-dir', dir, '--json'])
  t.equal(created.code, 0)
  t.equal(created.stderr, `svc: data dir ${dir} (opened directly)\n`)
  t.equal(JSON.parse(created.stdout).username, 'alice')

  const listed = await svcProcess(['user', 'list', '--data-dir', dir, '--json'])
  t.equal(listed.stderr, '', 'a command that only reads says nothing more')

  const server = await serve(dir)
  t.teardown(() => server.stop())
  const app = await svcProcess(['app', 'create', '--name', 'Patter', '--data-dir', dir, '--json'])
  t.equal(app.stderr, `svc: data dir ${dir} (through the server, process ${server.child.pid})\n`)
  t.equal(JSON.parse(app.stdout).name, 'Patter')
})

t.test('a data dir that is a file is refused in one line by init, serve and the admin commands', async (t) => {
  const file = join(await initDir(t), 'config.json')
  for (const args of [['init'], ['serve', '--port', '0'], ['user', 'list']]) {
    const r = await svc([...args, '--data-dir', file])
    t.not(r.code, 0, args[0])
    t.equal(r.stderr, `svc: data dir ${file} is a file, not a directory: give --data-dir (or SVC_DATA_DIR) a directory\n`)
  }
})
