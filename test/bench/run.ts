/**
 * `npm run bench`: runs every scenario of `scenarios/index.ts` (or those named
 * on the command line), each phase in a fresh node process, and prints one
 * report with the machine it ran on. `--json` prints the report as JSON.
 * `BENCH_SCALE=0.01` shrinks record counts and durations for a smoke run;
 * `BENCH_DIR` picks where the scenarios' files go (default: the OS tmp dir).
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { cpus, release, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BenchContext, Measure, Scenario } from './scenario.js'
import { scenarios } from './scenarios/index.js'

type Phase = 'prepare' | 'run'

const scale = Number(process.env.BENCH_SCALE ?? 1)
if (!(scale > 0)) throw new Error(`BENCH_SCALE must be a positive number, not ${process.env.BENCH_SCALE}`)

const contextFor = (scenario: Scenario, workDir: string): BenchContext => ({
  workDir,
  scale,
  log: (message) => process.stderr.write(`  [${scenario.name}] ${message}\n`),
})

const find = (name: string): Scenario => {
  const scenario = scenarios.find((s) => s.name === name)
  if (!scenario) throw new Error(`no scenario ${name}; there are: ${scenarios.map((s) => s.name).join(', ')}`)
  return scenario
}

/** In a child: run one phase and print its answer as the last line of stdout. */
async function runPhase(phase: Phase, name: string, workDir: string): Promise<void> {
  const scenario = find(name)
  const ctx = contextFor(scenario, workDir)
  const answer = phase === 'prepare' ? await scenario.prepare?.(ctx) : await scenario.run(ctx)
  process.stdout.write(JSON.stringify(answer ?? null) + '\n')
}

/** In the parent: a phase in a fresh process, so heaps and RSS never mix. */
function spawnPhase(phase: Phase, name: string, workDir: string): Promise<unknown> {
  const child = spawn(process.execPath, ['--expose-gc', '--max-old-space-size=8192', fileURLToPath(import.meta.url), '--phase', phase, name, workDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${name} ${phase} exited with ${code}`))
      resolve(JSON.parse(out.trim().split('\n').pop() ?? 'null'))
    })
  })
}

const machine = () => ({
  cpu: `${cpus()[0]?.model ?? 'unknown'} x${cpus().length}`,
  memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
  node: process.version,
  os: `${process.platform} ${release()}`,
  scale,
  dir: process.env.BENCH_DIR ?? tmpdir(),
  date: new Date().toISOString(),
})

const format = (m: Measure): string => {
  // A measure that never happened (NaN) comes back from the phase's JSON as null.
  if (typeof m.value !== 'number' || !Number.isFinite(m.value)) return `n/a ${m.unit}`
  const digits = Math.abs(m.value) >= 100 ? 0 : Math.abs(m.value) >= 10 ? 1 : 2
  return `${m.value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })} ${m.unit}`
}

async function runAll(names: string[], json: boolean): Promise<void> {
  const chosen = names.length > 0 ? names.map(find) : scenarios
  const results: { scenario: string; description: string; measures: Measure[] }[] = []
  for (const scenario of chosen) {
    process.stderr.write(`bench: ${scenario.name}\n`)
    const workDir = await mkdtemp(join(process.env.BENCH_DIR ?? tmpdir(), `svc-bench-${scenario.name}-`))
    try {
      if (scenario.prepare) await spawnPhase('prepare', scenario.name, workDir)
      const measures = (await spawnPhase('run', scenario.name, workDir)) as Measure[]
      results.push({ scenario: scenario.name, description: scenario.description, measures })
    } finally {
      await rm(workDir, { recursive: true, force: true })
    }
  }
  const report = { machine: machine(), results }
  if (json) {
    process.stdout.write(JSON.stringify(report, null, 2) + '\n')
    return
  }
  const lines = [
    `machine: ${Object.entries(report.machine)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    '',
  ]
  for (const r of results) {
    lines.push(`## ${r.scenario}: ${r.description}`, '', '| measure | value |', '|---|---|')
    for (const m of r.measures) lines.push(`| ${m.name} | ${format(m)} |`)
    lines.push('')
  }
  process.stdout.write(lines.join('\n'))
}

const args = process.argv.slice(2)
if (args[0] === '--phase') await runPhase(args[1] as Phase, args[2], args[3])
else
  await runAll(
    args.filter((a) => a !== '--json'),
    args.includes('--json'),
  )
