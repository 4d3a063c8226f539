#!/usr/bin/env node
/**
 * `npm run build`'s compile step (not part of the svc CLI): the TypeScript of
 * bin/, server/ (but the web client, which Vite builds), admin/, data/ and
 * test/ into dist/, file for file, by esbuild. tsc's emit costs about 15 s
 * of CPU, esbuild's a second; the types are checked apart
 * (`npm run typecheck`), which `npm test` runs beside the tests. Every file
 * compiles alone, as tsc's `isolatedModules` checks (the typecheck sets it).
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'

const ROOTS = ['bin', 'server', 'admin', 'data', 'test']
const WEB_CLIENT = join('server', 'web')

const sources = ROOTS.flatMap((root) =>
  readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((path) => join(root, path))
    .filter((path) => /\.tsx?$/.test(path) && !path.endsWith('.d.ts') && !path.startsWith(WEB_CLIENT)),
)

await build({
  entryPoints: sources,
  outdir: 'dist',
  outbase: '.',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  jsx: 'automatic',
  tsconfig: 'tsconfig.json',
  logLevel: 'warning',
})
