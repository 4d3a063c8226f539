/**
 * The version of the installed svc, from its package.json, found by walking
 * up from this module: it runs as data/ from source and as dist/data/ once
 * compiled, so the depth differs.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export function packageVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const path = join(dir, 'package.json')
    if (existsSync(path)) return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version
    if (dirname(dir) === dir) return 'unknown'
  }
}
