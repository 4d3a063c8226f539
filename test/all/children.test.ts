import t from 'tap'
import { execFile } from 'node:child_process'
import { withoutTapHooks } from '../fixtures/child-env.js'

const childSees = (script: string): Promise<string> =>
  new Promise((resolve, reject) => execFile('sh', ['-c', `node -e '${script}'`], (err, stdout) => (err ? reject(err) : resolve(stdout.trim()))))

t.test("a node process a test starts, through a shell too, runs without tap's process-info hook", async (t) => {
  t.match(process.env.NODE_OPTIONS ?? '', /@tapjs\/processinfo/, 'this test process has it (tap puts it there)')
  const seen = JSON.parse(
    await childSees(
      'console.log(JSON.stringify({ options: process.env.NODE_OPTIONS ?? "", tap: Object.keys(process.env).filter((k) => k.startsWith("_TAPJS_PROCESSINFO_")) }))',
    ),
  )
  t.strictSame(seen, { options: '', tap: [] })
})

t.test("the node options an operator gave are kept, tap's entries go", async (t) => {
  t.equal(withoutTapHooks('--max-old-space-size=256 "--import=file:///x/node_modules/@tapjs/processinfo/dist/esm/import.mjs"'), '--max-old-space-size=256')
  t.equal(withoutTapHooks('"--import=file:///x/node_modules/@tapjs/processinfo/dist/esm/import.mjs"'), undefined)
  t.equal(withoutTapHooks(undefined), undefined)
})
