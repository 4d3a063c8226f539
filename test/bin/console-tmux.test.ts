/**
 * `svc console` once in a real terminal: tmux runs it in a detached 80x24
 * session against a real `svc serve`, keys go in with `send-keys`, and the
 * screen comes back with `capture-pane`, as an operator would see it. Alice
 * holds a user stream open meanwhile, so the Streams tab has one to show.
 * Skipped where tmux is not installed (CI installs it).
 */
import t from 'tap'
import { execFileSync } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { attachAdminClient } from '../../admin/admin-client.js'
import { openWebSocket } from '../fixtures/streams.js'
import { serve, SVC, tempDir } from '../fixtures/svc-process.js'

const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

t.test(
  'in an 80x24 terminal the title fits one line and the Streams tab shows a connected stream',
  { skip: hasTmux ? false : 'tmux is not installed (apt-get install tmux)' },
  async (t) => {
    const dir = tempDir(t)
    const server = await serve(dir)
    t.teardown(() => server.stop())
    const client = attachAdminClient(dir)
    const { client_id } = (await client.call('app.create', { name: 'Patter', redirect_uris: ['http://patter.example/cb'] })) as { client_id: string }
    await client.call('user.create', { username: 'alice', password: 'correct horse' })
    const { access_token } = (await client.call('token.create', { username: 'alice', client_id })) as { access_token: string }
    const stream = await openWebSocket(server.url, access_token)
    t.teardown(() => stream.close())

    // A tmux server of this test's own, so an operator's sessions are never touched. CI is set as CI services set it:
    // Ink would then draw nothing until exit, unless the console undoes it.
    const tmux = (...args: string[]) =>
      execFileSync('tmux', ['-L', `svc-test-${process.pid}`, ...args], {
        encoding: 'utf8',
        env: { ...process.env, TERM: 'xterm-256color', CI: 'true' },
      })
    tmux('new-session', '-d', '-s', 'console', '-x', '80', '-y', '24', `node ${SVC} console --data-dir ${dir}`)
    t.teardown(() => tmux('kill-server'))
    const screen = () => tmux('capture-pane', '-p', '-t', 'console')
    const until = async (check: (s: string) => boolean, what: string): Promise<string> => {
      const deadline = Date.now() + 20_000
      for (;;) {
        const shown = screen()
        if (check(shown)) return shown
        if (Date.now() > deadline) throw new Error(`the terminal never showed ${what}; it shows: ${JSON.stringify(shown)}`)
        await sleep(100)
      }
    }

    const first = await until((s) => s.includes('@alice'), 'the tokens')
    const [title, under] = first.split('\n')
    t.match(
      title,
      /^svc\s+1 Tok\s+2 Expl\s+3 Usr\s+4 App\s+5 Strm\s+6 Ev\s+7 AppS\s+8 Filt\s+9 Fed\s+0 Rep\s*$/,
      'every tab on the title line, short at 80 columns (no room left for the help hint)',
    )
    t.equal(under.trim(), '', 'nothing of it wrapped to the next line')

    tmux('send-keys', '-t', 'console', '5')
    const streams = await until((s) => s.includes(stream.connectionId), 'the stream in full in the detail pane')
    t.match(streams, new RegExp(`› ${stream.connectionId.slice(0, 11)}\\w*…\\s+@alice\\s+Patter\\s+live\\s+\\d\\d:\\d\\d:\\d\\d\\s+0\\s+0/1000`))
    t.match(streams, /connected since/)
    t.ok(
      streams.split('\n').every((l) => [...l].length <= 80),
      'no line wider than the terminal',
    )
  },
)
