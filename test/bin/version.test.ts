import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../project-root.js'
import { svcProcess } from '../fixtures/svc-process.js'

t.test('svc --version and -V print the version of the installed package', async (t) => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
  for (const flag of ['--version', '-V']) {
    const r = await svcProcess([flag])
    t.equal(r.code, 0, flag)
    t.equal(r.stdout, `${version}\n`)
    t.equal(r.stderr, '')
  }
})
