import t from 'tap'
import { readFileSync } from 'node:fs'
import { ensureBuilt, svcProcess } from './svc-process.js'

ensureBuilt()

t.test('svc --version and -V print the version of the installed package', async (t) => {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  for (const flag of ['--version', '-V']) {
    const r = await svcProcess([flag])
    t.equal(r.code, 0, flag)
    t.equal(r.stdout, `${version}\n`)
    t.equal(r.stderr, '')
  }
})
