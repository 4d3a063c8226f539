/**
 * Uploads to a real `svc serve`: `POST /stream/0/files` (multipart, one
 * `content` part) of 100 KB PNG and 5 MB JPEG noise images (so the server
 * makes both thumbnails) and of 50 MB non-images, closed loop at a fixed
 * number in flight; uploads/s and MB/s of content. Beside them, in the same
 * run and on the same filesystem (the data dir's files folder), the disk's
 * own sequential write speed with an fsync: 50 MB in 1 MB chunks, then
 * fsync, the physical limit an acknowledged (durable) upload cannot beat.
 * The server's RSS is sampled every 50 ms from /proc during the 50 MB
 * uploads: a streamed upload leaves it flat. The same 50 MB bodies also go,
 * from the same client, to a bare `node:http` server that only hashes,
 * writes and fsyncs them (upload-floor-server.ts): what any Node server
 * acknowledging a durable upload costs on this machine, so svc's own share
 * is visible beside the disk's.
 */
import { createHash, randomBytes } from 'node:crypto'
import http from 'node:http'
import { readFileSync, writeFileSync } from 'node:fs'
import { open, unlink } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { initDataDir, openDomain } from '../../../data/index.js'
import { scaled, type BenchContext, type Measure, type Scenario } from '../scenario.js'
import { megabytesOf, placesReady, start, stop } from './api-at-scale.js'
import { cpuSecondsOf } from './app-streams.js'

const MB = 1_000_000
const LARGE = 50 * MB
const CHUNK = 1 << 20
/** The most uploads in flight of any kind below. */
const LANES = 8

interface Prepared {
  /** One uploader per lane: a user may have only `UPLOADS_PER_USER` uploads under way at once. */
  tokens: string[]
}

interface Kind {
  label: string
  file: string
  mime: string
  filename: string
  inFlight: number
  count: number
  image: boolean
}

/** CPU seconds of a process's main thread alone (its thread id is its pid). */
const mainThreadCpuOf = (pid: number): number => cpuSecondsOf(pid, pid)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** A noise image of about `bytes` (noise does not compress, so the size follows the pixel count). */
async function noiseImage(format: 'png' | 'jpeg', bytes: number): Promise<Buffer> {
  const make = (side: number) => {
    const image = sharp({
      create: { width: side, height: Math.round(side * 0.75), channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
    })
    return (format === 'png' ? image.png({ compressionLevel: 6 }) : image.jpeg({ quality: 92 })).toBuffer()
  }
  const probe = await make(512)
  return make(Math.round(512 * Math.sqrt(bytes / probe.length)))
}

/** `POST /stream/0/files` with `data` as the `content` part; answers the status, the answer and the time it took. */
function upload(port: number, token: string, data: Buffer, mime: string, filename: string): Promise<{ status: number; body: any; ms: number }> {
  const boundary = `svc-bench-${randomBytes(8).toString('hex')}`
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\ncom.example.bench\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="content"; filename="${filename}"\r\nContent-Type: ${mime}\r\n\r\n`,
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  const began = performance.now()
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/stream/0/files',
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + data.length + tail.length,
        },
      },
      (res) => {
        let out = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (out += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(out), ms: performance.now() - began }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.write(head)
    // Large bodies go in 1 MB writes, as a client streaming from disk sends them.
    for (let at = 0; at < data.length; at += CHUNK) req.write(data.subarray(at, at + CHUNK))
    req.end(tail)
  })
}

/** `count` uploads of `kind`, `inFlight` at a time; every answer is checked (200, sha1, thumbnails for images; for the floor, 200 and the body's size). */
async function uploads(
  port: number,
  tokens: readonly string[],
  kind: Kind,
  data: Buffer,
  sample?: () => void,
  floor = false,
): Promise<{ seconds: number; p50: number; max: number }> {
  const sha1 = createHash('sha1').update(data).digest('hex')
  let next = 0
  const times: number[] = []
  const sampler = sample ? setInterval(sample, 50) : null
  const began = performance.now()
  const lane = async (token: string) => {
    while (next < kind.count) {
      next++
      const r = await upload(port, token, data, kind.mime, kind.filename)
      if (r.status !== 200) throw new Error(`${kind.label}: POST /files answered ${r.status}: ${JSON.stringify(r.body.meta ?? r.body)}`)
      if (floor) {
        // The floor takes the whole multipart body as bytes: more than the content, never less.
        if (!(r.body.size > data.length)) throw new Error(`${kind.label}: the floor server got ${r.body.size} bytes`)
        times.push(r.ms)
        continue
      }
      if (r.body.data.sha1 !== sha1 || r.body.data.size !== data.length)
        throw new Error(`${kind.label}: the stored file has sha1 ${r.body.data.sha1}, size ${r.body.data.size}`)
      if (kind.image && !(r.body.data.derived_files?.image_thumb_200s && r.body.data.derived_files?.image_thumb_960r))
        throw new Error(`${kind.label}: no thumbnails in ${JSON.stringify(r.body.data.derived_files)}`)
      times.push(r.ms)
    }
  }
  try {
    await Promise.all(Array.from({ length: kind.inFlight }, (_, i) => lane(tokens[i % tokens.length])))
  } finally {
    if (sampler) clearInterval(sampler)
  }
  return { seconds: (performance.now() - began) / 1000, p50: median(times), max: Math.max(...times) }
}

/** Writes 50 MB in 1 MB chunks to a new file in `dir`, then fsyncs it; answers MB/s (the file is removed). */
async function diskWrite(dir: string): Promise<number> {
  const path = join(dir, `bench-disk-${randomBytes(6).toString('hex')}`)
  const chunk = randomBytes(CHUNK)
  const began = performance.now()
  const handle = await open(path, 'wx')
  try {
    for (let written = 0; written < LARGE; written += CHUNK) await handle.write(chunk, 0, Math.min(CHUNK, LARGE - written))
    await handle.sync()
  } finally {
    await handle.close()
  }
  const seconds = (performance.now() - began) / 1000
  await unlink(path)
  return LARGE / MB / seconds
}

/** The 50 MB kinds again, against the floor server: MB/s, its CPU, and svc's MB/s as a share of it. */
async function floorRuns(ctx: BenchContext, filesDir: string, kinds: Kind[], svcMeasures: readonly Measure[]): Promise<Measure[]> {
  const floor = await start(['dist/test/bench/upload-floor-server.js', filesDir])
  const out: Measure[] = []
  try {
    const data = readFileSync(join(ctx.workDir, kinds[0].file))
    await uploads(floor.port, [''], { ...kinds[0], count: 2 }, data, undefined, true)
    for (const kind of kinds) {
      const cpuBefore = cpuSecondsOf(floor.child.pid as number)
      const mainBefore = mainThreadCpuOf(floor.child.pid as number)
      const r = await uploads(floor.port, [''], kind, data, undefined, true)
      const cpu = cpuSecondsOf(floor.child.pid as number) - cpuBefore
      const mainCpu = mainThreadCpuOf(floor.child.pid as number) - mainBefore
      const mbs = (kind.count * data.length) / MB / r.seconds
      const svc = (svcMeasures.find((m) => m.name === `${kind.label}: content MB/s`) as Measure).value
      ctx.log(`floor, ${kind.label}: ${mbs.toFixed(1)} MB/s (svc ${svc.toFixed(1)})`)
      out.push(
        { name: `floor, ${kind.label}: content MB/s`, value: mbs, unit: 'MB/s' },
        { name: `floor, ${kind.label}: content MB/s vs the disk's sequential write with fsync (median of the run)`, value: NaN, unit: '%' },
        { name: `floor, ${kind.label}: server CPU per MB of content (user + system)`, value: (cpu * 1000 * MB) / (kind.count * data.length), unit: 'ms' },
        { name: `floor, ${kind.label}: server CPU use`, value: (100 * cpu) / r.seconds, unit: '% of a core' },
        { name: `floor, ${kind.label}: server main thread CPU use`, value: (100 * mainCpu) / r.seconds, unit: '% of a core' },
        { name: `svc vs the floor, ${kind.label}: svc's content MB/s as a share of the floor's`, value: (100 * svc) / mbs, unit: '%' },
      )
    }
  } finally {
    await stop(floor).catch(() => undefined)
  }
  return out
}

export const files: Scenario = {
  name: 'files',
  description:
    "svc serve, POST /stream/0/files (multipart) of 100 KB PNG and 5 MB JPEG noise images (thumbnails made) and 50 MB non-images, beside the disk's sequential write with fsync in the same folder; server RSS during the 50 MB uploads",

  async prepare(ctx) {
    const dir = join(ctx.workDir, 'data')
    await initDataDir(dir)
    // Room for the bench's uploads: 50 MB files, and a quota past everything it sends.
    const configFile = join(dir, 'config.json')
    const config = JSON.parse(readFileSync(configFile, 'utf8'))
    config.limits = { ...config.limits, max_file_size: 60 * MB, storage: 1_000_000 * MB }
    config.rate_limits = { ...config.rate_limits, enabled: false }
    writeFileSync(configFile, JSON.stringify(config, null, 2))
    const domain = await openDomain(dir)
    await domain.start()
    const { app } = await domain.auth.apps.create({ name: 'Bench Uploader' })
    const tokens: string[] = []
    for (let i = 0; i < LANES; i++) {
      const user = await domain.users.accounts.create({ username: `uploader${i}` })
      tokens.push((await domain.auth.tokens.issueUserToken(app, user, ['basic', 'files'])).access_token)
    }
    await domain.close()
    writeFileSync(join(ctx.workDir, 'prepared.json'), JSON.stringify({ tokens } satisfies Prepared))
    writeFileSync(join(ctx.workDir, 'small.png'), await noiseImage('png', 100_000))
    writeFileSync(join(ctx.workDir, 'medium.jpg'), await noiseImage('jpeg', 5 * MB))
    writeFileSync(join(ctx.workDir, 'large.bin'), randomBytes(LARGE))
  },

  async run(ctx: BenchContext) {
    const { tokens } = JSON.parse(readFileSync(join(ctx.workDir, 'prepared.json'), 'utf8')) as Prepared
    const dataDir = join(ctx.workDir, 'data')
    const filesDir = join(dataDir, 'files')
    const kinds: Kind[] = [
      { label: '100 KB PNG images', file: 'small.png', mime: 'image/png', filename: 'noise.png', inFlight: 8, count: scaled(ctx, 400, 16), image: true },
      { label: '5 MB JPEG images', file: 'medium.jpg', mime: 'image/jpeg', filename: 'noise.jpg', inFlight: 4, count: scaled(ctx, 40, 4), image: true },
      {
        label: '50 MB non-images, 1 in flight',
        file: 'large.bin',
        mime: 'application/octet-stream',
        filename: 'blob.bin',
        inFlight: 1,
        count: scaled(ctx, 20, 2),
        image: false,
      },
      {
        label: '50 MB non-images, 4 in flight',
        file: 'large.bin',
        mime: 'application/octet-stream',
        filename: 'blob.bin',
        inFlight: 4,
        count: scaled(ctx, 12, 4),
        image: false,
      },
    ]
    // BENCH_CPU_PROF=<dir> writes the server's CPU profile there, as in the app-streams scenario.
    const prof = process.env.BENCH_CPU_PROF ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []
    const server = await start([...prof, 'bin/svc.js', 'serve', '--data-dir', dataDir, '--port', '0', '--host', '127.0.0.1'], { SVC_RATE_LIMIT: 'off' })
    const pid = server.child.pid as number
    await placesReady(server.port, tokens[0])
    const out: Measure[] = []
    const disk: number[] = []
    const loadBefore = loadavg()[0]
    try {
      // The disk first and between the kinds: its speed on a shared machine drifts too.
      const measureDisk = async () => {
        for (let i = 0; i < scaled(ctx, 2, 1); i++) disk.push(await diskWrite(filesDir))
      }
      await measureDisk()
      ctx.log(`disk: ${disk.map((v) => v.toFixed(0)).join(', ')} MB/s`)
      // Warm-up, unmeasured: the JIT, sharp's first use.
      await uploads(server.port, tokens, { ...kinds[0], count: 16 }, readFileSync(join(ctx.workDir, kinds[0].file)))
      // BENCH_FILES_LARGE_ONLY=1 skips the images: the 50 MB uploads on a server that made no thumbnails.
      for (const kind of kinds.filter((k) => !(process.env.BENCH_FILES_LARGE_ONLY && k.image))) {
        const data = readFileSync(join(ctx.workDir, kind.file))
        const large = !kind.image
        await sleep(500)
        const rssBefore = megabytesOf(pid, 'VmRSS')
        let rssMax = rssBefore
        const sample = () => (rssMax = Math.max(rssMax, megabytesOf(pid, 'VmRSS')))
        const cpuBefore = cpuSecondsOf(pid)
        const mainBefore = mainThreadCpuOf(pid)
        const benchCpuBefore = process.cpuUsage()
        const r = await uploads(server.port, tokens, kind, data, sample)
        const serverCpu = cpuSecondsOf(pid) - cpuBefore
        const mainCpu = mainThreadCpuOf(pid) - mainBefore
        const benchCpu = process.cpuUsage(benchCpuBefore)
        const mbs = (kind.count * data.length) / MB / r.seconds
        ctx.log(
          `${kind.label}: ${(kind.count / r.seconds).toFixed(1)} uploads/s, ${mbs.toFixed(1)} MB/s, RSS ${rssBefore.toFixed(0)} → max ${rssMax.toFixed(0)} MB`,
        )
        out.push(
          {
            name: `${kind.label} (${(data.length / MB).toFixed(2)} MB each, ${kind.inFlight} in flight, ${kind.count} uploads): uploads/s`,
            value: kind.count / r.seconds,
            unit: 'uploads/s',
          },
          { name: `${kind.label}: content MB/s`, value: mbs, unit: 'MB/s' },
          { name: `${kind.label}: upload time p50`, value: r.p50, unit: 'ms' },
          { name: `${kind.label}: upload time max`, value: r.max, unit: 'ms' },
          { name: `${kind.label}: server CPU per MB of content (user + system)`, value: (serverCpu * 1000 * MB) / (kind.count * data.length), unit: 'ms' },
          { name: `${kind.label}: server CPU use`, value: (100 * serverCpu) / r.seconds, unit: '% of a core' },
          { name: `${kind.label}: server main thread CPU use (the rest: thread pool, GC, sharp)`, value: (100 * mainCpu) / r.seconds, unit: '% of a core' },
          { name: `${kind.label}: bench client CPU use`, value: (benchCpu.user + benchCpu.system) / 1e4 / r.seconds, unit: '% of a core' },
          { name: `${kind.label}: server RSS before`, value: rssBefore, unit: 'MB' },
          { name: `${kind.label}: server RSS, largest sample (every 50 ms)`, value: rssMax, unit: 'MB' },
        )
        if (large) out.push({ name: `${kind.label}: content MB/s vs the disk's sequential write with fsync (median of the run)`, value: NaN, unit: '%' })
        await measureDisk()
      }
      await stop(server)
      out.push(
        ...(await floorRuns(
          ctx,
          filesDir,
          kinds.filter((k) => !k.image),
          out,
        )),
      )
      await measureDisk()
      const diskMedian = median(disk)
      for (const m of out)
        if (m.unit === '%' && Number.isNaN(m.value))
          m.value = (100 * (out.find((o) => o.name === m.name.replace(/:.*$/, ': content MB/s')) as Measure).value) / diskMedian
      out.push(
        { name: `disk: 50 MB in 1 MB writes + fsync, same folder, median of ${disk.length}`, value: diskMedian, unit: 'MB/s' },
        { name: 'disk: slowest of those', value: Math.min(...disk), unit: 'MB/s' },
        { name: 'disk: fastest of those', value: Math.max(...disk), unit: 'MB/s' },
        { name: 'load average (1 min) at the start, whole machine', value: loadBefore, unit: '' },
        { name: 'load average (1 min) at the end, whole machine', value: loadavg()[0], unit: '' },
      )
      return out
    } finally {
      await stop(server).catch(() => undefined)
    }
  },
}
