/**
 * Runs the test files of one group (groups.ts) in this process: each file's
 * top-level tests queue on tap's root test in file order, as if the files
 * had been written one after the other.
 */
import t from 'tap'
import { readdirSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { groupOf } from './groups.js'

const testRoot = dirname(dirname(fileURLToPath(import.meta.url)))

/** Test files under test/ (compiled: `.test.js`), as paths relative to it, in a stable order. */
export function testFiles(root = testRoot): string[] {
  return (readdirSync(root, { recursive: true }) as string[])
    .filter((path) => /\.test\.[jt]sx?$/.test(path) && !path.endsWith('.d.ts'))
    .map((path) => path.split('\\').join('/'))
    .sort()
}

/** The group a suite file runs: its name without the number that orders it (`08-server-posts-channels.suite.js`). */
export const groupOfSuite = (file: string): string =>
  basename(file)
    .replace(/^\d+-/, '')
    .replace(/\.suite\.[jt]s$/, '')

/** Runs every test file of the group named as the calling suite file. */
export async function runGroup(suiteUrl: string): Promise<void> {
  const group = groupOfSuite(fileURLToPath(suiteUrl))
  const files = testFiles().filter((path) => groupOf(path) === group)
  if (files.length === 0) throw new Error(`the test group ${group} has no files`)
  await runFiles(files)
}

/** Runs the named test files (paths under test/ without extension) in this process, in that order. */
export async function runNamed(names: readonly string[]): Promise<void> {
  const files = testFiles()
  const missing = names.filter((name) => !files.some((path) => path.replace(/\.[jt]sx?$/, '') === name))
  if (missing.length > 0) throw new Error(`no test file ${missing.join(', ')}`)
  await runFiles(names.map((name) => files.find((path) => path.replace(/\.[jt]sx?$/, '') === name)!))
}

async function runFiles(files: string[]): Promise<void> {
  for (const path of files) {
    t.comment(`file: test/${path}`)
    await import(pathToFileURL(join(testRoot, path)).href)
  }
}
