/**
 * The tree shows the architecture: data/ is the domain package and imports
 * nothing from server/, admin/ or bin/; those import data/ through its index.
 * The console is a client of the admin protocol (in data/), never of the
 * server's code; the CLI starts a server through server/index.ts only.
 */
import t from 'tap'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve, dirname } from 'node:path'
import { ROOT as root } from './project-root.js'

const sources = (dir: string): string[] =>
  readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(join(root, path)).isDirectory()) return sources(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })

const importsOf = (file: string): string[] =>
  [...readFileSync(join(root, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) => relative(root, resolve(root, dirname(file), m[1])))

t.test('data/ imports nothing from server/, admin/ or bin/', async (t) => {
  const offending = sources('data').flatMap((f) =>
    importsOf(f)
      .filter((i) => /^(server|admin|bin)\//.test(i))
      .map((i) => `${f} -> ${i}`),
  )
  t.same(offending, [])
})

t.test('server/, admin/ and bin/ reach data/ only through its index', async (t) => {
  const outer = ['server', 'admin', 'bin'].filter((d) => {
    try {
      return statSync(join(root, d)).isDirectory()
    } catch {
      return false
    }
  })
  const offending = outer.flatMap((d) =>
    sources(d).flatMap((f) =>
      importsOf(f)
        .filter((i) => i.startsWith('data/') && i !== 'data/index.js')
        .map((i) => `${f} -> ${i}`),
    ),
  )
  t.same(offending, [])
})

t.test('admin/ imports nothing from server/', async (t) => {
  const offending = sources('admin').flatMap((f) =>
    importsOf(f)
      .filter((i) => i.startsWith('server/'))
      .map((i) => `${f} -> ${i}`),
  )
  t.same(offending, [])
})

t.test('bin/ reaches server/ only through its index, to run a server or an admin operation', async (t) => {
  const fromServer = sources('bin').flatMap((f) => importsOf(f).filter((i) => i.startsWith('server/')))
  t.ok(fromServer.length > 0, 'svc serve starts a server')
  t.same(
    fromServer.filter((i) => i !== 'server/index.js'),
    [],
  )
})

t.test("server/api/ holds the API's types only, and imports nothing outside itself", async (t) => {
  const files = sources('server/api')
  t.ok(files.length > 0)
  t.same(
    files.flatMap((f) =>
      importsOf(f)
        .filter((i) => !i.startsWith('server/api/'))
        .map((i) => `${f} -> ${i}`),
    ),
    [],
  )
  const code = files.filter((f) => /^export\s+(const|let|function|class|enum|default)\b/m.test(readFileSync(join(root, f), 'utf8')))
  t.same(code, [], 'nothing there runs')
})

t.test("the web client reaches outside itself only for the API's types, type-only", async (t) => {
  const outside = sources('server/web/src').flatMap((f) =>
    [...readFileSync(join(root, f), 'utf8').matchAll(/import\s+(type\s+)?[^']*?from\s*'(\.[^']+)'/g)]
      .map((m) => ({ typeOnly: Boolean(m[1]), to: relative(root, resolve(root, dirname(f), m[2])) }))
      .filter(({ to }) => !to.startsWith('server/web/'))
      .map(({ typeOnly, to }) => `${f} -> ${to}${typeOnly ? '' : ' (not type-only)'}`),
  )
  t.ok(outside.length > 0, 'the client reads the API objects from server/api/')
  t.same(
    outside.filter((line) => !line.endsWith(' -> server/api')),
    [],
  )
})
