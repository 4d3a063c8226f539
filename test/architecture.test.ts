/**
 * The tree shows the architecture: data/ is the domain package and imports
 * nothing from server/, admin/ or bin/; those import data/ through its index.
 * The console is a client of the admin protocol (in data/), never of the
 * server's code; the CLI starts a server through server/index.ts only.
 * Inside data/, folders are layers (LAYERS below): an import goes down,
 * never up nor across, and no import cycle exists, type-only ones included.
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

/**
 * The layers of data/, bottom first; each entry is a folder of data/ or a
 * file at its top (without `.ts`). Shared mechanisms at the bottom, then the
 * nouns from the least dependent to the most, then the coordinators that use
 * several nouns, the wiring (domain), the admin operations and the index.
 * Members of one layer know nothing of each other.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['errors', 'limits', 'time', 'redact-url', 'package-version'],
  ['model'],
  ['viewer'],
  ['security'],
  ['disk'],
  ['config-schema'],
  ['config', 'client-config'],
  ['bus', 'mail'],
  ['store'],
  ['events'],
  ['pagination', 'text', 'images'],
  ['places', 'filters'],
  ['annotations'],
  ['users'],
  ['relations', 'auth'],
  ['channels'],
  ['posts'],
  ['files'],
  ['explore', 'public', 'search', 'streams', 'moderation', 'export'],
  ['federation'],
  ['instance', 'backup'],
  ['domain'],
  ['admin'],
  ['index'],
]

/** Every import edge between data/ modules, as `from -> to` paths (`.ts`). */
const dataEdges = (): [string, string][] =>
  sources('data').flatMap((f) =>
    importsOf(f)
      .filter((i) => i.startsWith('data/'))
      .map((i): [string, string] => [f, i.replace(/\.js$/, '.ts')]),
  )

const unitOf = (path: string): string => path.split('/')[1].replace(/\.ts$/, '')

t.test('every folder and top-level file of data/ has a layer', async (t) => {
  const listed = LAYERS.flat()
  t.same(
    [...new Set(sources('data').map(unitOf))].filter((u) => !listed.includes(u)),
    [],
  )
  t.same(
    listed.filter((u, i) => listed.indexOf(u) !== i),
    [],
    'and only one',
  )
})

t.test('an import in data/ goes to its own folder or a lower layer, never up nor across', async (t) => {
  const layerOf = (unit: string): number => LAYERS.findIndex((layer) => layer.includes(unit))
  const offending = dataEdges()
    .filter(([from, to]) => unitOf(from) !== unitOf(to) && layerOf(unitOf(to)) >= layerOf(unitOf(from)))
    .map(([from, to]) => `${from} -> ${to}`)
  t.same(offending, [])
})

/** The import cycles of the graph `next` (module -> the modules it imports): Tarjan's strongly connected components of more than one module. */
function cyclesOf(modules: Iterable<string>, next: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const cycles: string[][] = []
  const visit = (v: string): void => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const component = stack.splice(stack.indexOf(v))
    if (component.length > 1) cycles.push(component.sort())
  }
  for (const module of modules) if (!index.has(module)) visit(module)
  return cycles
}

t.test('no import cycle in data/, type-only imports included', async (t) => {
  const next = new Map<string, string[]>()
  for (const [from, to] of dataEdges()) next.set(from, [...(next.get(from) ?? []), to])
  t.same(cyclesOf(sources('data'), next), [])
})

/** What a compiled module imports, as written: its static imports (bare ones included) and, with `dynamic`, its `import()`s. */
function specifiersIn(file: string, { dynamic = false } = {}): string[] {
  const pattern = dynamic
    ? /(?:^(?:import|export)\s[^;]*?\bfrom\s*|^import\s*|\bimport\s*\(\s*)"([^"]+)"/gm
    : /(?:^(?:import|export)\s[^;]*?\bfrom\s*|^import\s*)"([^"]+)"/gm
  return [...readFileSync(file, 'utf8').matchAll(pattern)].map((m) => m[1])
}

/** svc's own imports of each compiled module under dist/ (static and dynamic; type-only imports are gone there), by path under dist/. */
function compiledImports(): Map<string, string[]> {
  const dist = join(root, 'dist')
  const next = new Map<string, string[]>()
  const modules = ['bin', 'server', 'admin', 'data', 'test'].flatMap((dir) =>
    (readdirSync(join(dist, dir), { recursive: true, encoding: 'utf8' }) as string[]).map((path) => join(dir, path)),
  )
  for (const module of modules.filter((path) => path.endsWith('.js') && !path.startsWith('server/web/'))) {
    const specifiers = specifiersIn(join(dist, module), { dynamic: true }).filter((specifier) => specifier.startsWith('.'))
    next.set(
      module,
      specifiers.map((specifier) => relative(dist, resolve(dist, dirname(module), specifier))),
    )
  }
  return next
}

t.test('no import cycle among the modules as they run (compiled: type-only imports gone, dynamic ones kept)', async (t) => {
  const next = compiledImports()
  t.ok(next.get('bin/main.js')?.includes('bin/commands/index.js'), 'the compiled imports are read')
  t.same(cyclesOf(next.keys(), next), [])
  next.set('data/limits.js', [...(next.get('data/limits.js') ?? []), 'data/index.js'])
  t.ok(cyclesOf(next.keys(), next).length > 0, 'an import back up would be one')
})

t.test('no folder of data/, server/, admin/ or bin/ holds more than 20 source files', async (t) => {
  const counts = new Map<string, number>()
  for (const d of ['data', 'server', 'admin', 'bin']) for (const f of sources(d)) counts.set(dirname(f), (counts.get(dirname(f)) ?? 0) + 1)
  t.same(
    [...counts].filter(([, n]) => n > 20).map(([dir, n]) => `${dir}: ${n}`),
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

/** The packages the compiled `entry` loads before it runs (static imports, followed through svc's own files). */
function packagesLoadedBy(entry: string): Set<string> {
  const packages = new Set<string>()
  const seen = new Set<string>()
  const visit = (file: string): void => {
    if (seen.has(file)) return
    seen.add(file)
    for (const specifier of specifiersIn(file)) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier))
      else packages.add(specifier)
    }
  }
  visit(join(root, 'dist', entry))
  return packages
}

t.test('every svc command starts without Fedify: an instance that does not federate never loads it', async (t) => {
  const loaded = packagesLoadedBy('bin/main.js')
  t.ok(loaded.has('commander') && loaded.has('lowdb'), 'the import graph is read')
  t.notOk(loaded.has('@fedify/fedify'), 'Fedify is loaded on first use only (data/federation/federation.ts)')
})
