/**
 * svc's web client: the size of what a first visit loads (the script and
 * style the page names, raw and gzipped), and in Chromium on this machine
 * the time from navigation to the home timeline showing its first 20 posts,
 * signed in, each visit in a fresh browser context (nothing cached). The
 * floor beside it, in the same run: the same server's smallest document (a
 * 404 answer) loaded the same way.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { openDomain } from '../../../data/index.js'
import { ROOT } from '../../project-root.js'
import { scaled, type Measure, type Scenario } from '../scenario.js'
import { placesReady, start, stop } from './api-at-scale.js'

const POSTS = 20
const CHROMIUM = '/usr/bin/chromium'

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const p90 = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.9))]

/** The files a first visit loads: what dist/web/index.html names (scripts, module preloads, styles). */
function firstLoad(): { name: string; raw: number; gzip: number }[] {
  const web = join(ROOT, 'dist', 'web')
  const html = readFileSync(join(web, 'index.html'), 'utf8')
  const named = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1])
  return named.map((name) => {
    const bytes = readFileSync(join(web, name))
    return { name, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }
  })
}

export const webClient: Scenario = {
  name: 'web-client',
  description: `svc's web client: first-load size, and in Chromium the time from navigation to the home timeline with ${POSTS} posts, beside the same server's smallest document`,

  async prepare(ctx) {
    const dir = join(ctx.workDir, 'data')
    const domain = await openDomain(dir, { config: { rate_limits: { enabled: false } as never } })
    await domain.start()
    const web = await domain.auth.apps.ensureWebClient()
    const reader = await domain.users.accounts.create({ username: 'reader' })
    const writer = await domain.users.accounts.create({ username: 'writer', name: 'A Writer' })
    const { access_token } = await domain.auth.tokens.issueUserToken(web, reader, ['basic', 'stream', 'write_post', 'follow', 'messages', 'files'])
    const { access_token: writerToken } = await domain.auth.tokens.issueUserToken(web, writer, ['basic', 'write_post'])
    await domain.close()
    writeFileSync(join(ctx.workDir, 'prepared.json'), JSON.stringify({ token: access_token, writerToken, writerId: writer.id }))
  },

  async run(ctx) {
    const { token, writerToken, writerId } = JSON.parse(readFileSync(join(ctx.workDir, 'prepared.json'), 'utf8')) as {
      token: string
      writerToken: string
      writerId: number
    }
    const server = await start(['bin/svc.js', 'serve', '--data-dir', join(ctx.workDir, 'data'), '--port', '0', '--host', '127.0.0.1'], {
      SVC_RATE_LIMIT: 'off',
    })
    const base = `http://127.0.0.1:${server.port}`
    await placesReady(server.port, token)
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] })
    try {
      const api = (path: string, auth: string, body?: unknown) =>
        fetch(`${base}/stream/0${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
          body: JSON.stringify(body ?? {}),
        })
      await api(`/users/${writerId}/follow`, token)
      for (let i = 0; i < POSTS; i++) await api('/posts', writerToken, { text: `post ${i} of the bench: #coffee with @reader and https://example.com/${i}` })

      const visits = scaled(ctx, 15, 3)
      const timeline: number[] = []
      const floor: number[] = []
      for (let i = 0; i < visits; i++) {
        const context = await browser.newContext()
        await context.addInitScript((value) => localStorage.setItem('svc.token', value), token)
        const page = await context.newPage()
        const began = performance.now()
        await page.goto(`${base}/home`)
        await page
          .locator('article.post')
          .nth(POSTS - 1)
          .waitFor()
        timeline.push(performance.now() - began)
        await context.close()

        const empty = await browser.newContext()
        const blank = await empty.newPage()
        const from = performance.now()
        await blank.goto(`${base}/no-such-page`)
        floor.push(performance.now() - from)
        await empty.close()
      }
      const files = firstLoad()
      const sum = (key: 'raw' | 'gzip', ext: string) => files.filter((f) => f.name.endsWith(ext)).reduce((s, f) => s + f[key], 0) / 1000
      const measures: Measure[] = [
        { name: 'first load: JavaScript, raw', value: sum('raw', '.js'), unit: 'KB' },
        { name: 'first load: JavaScript, gzip -9', value: sum('gzip', '.js'), unit: 'KB' },
        { name: 'first load: CSS, raw', value: sum('raw', '.css'), unit: 'KB' },
        { name: 'first load: CSS, gzip -9', value: sum('gzip', '.css'), unit: 'KB' },
        { name: `navigation to the home timeline with ${POSTS} posts shown (${visits} fresh contexts): median`, value: median(timeline), unit: 'ms' },
        { name: `navigation to the home timeline with ${POSTS} posts shown: p90`, value: p90(timeline), unit: 'ms' },
        { name: "floor: navigation to the same server's smallest document (a 404): median", value: median(floor), unit: 'ms' },
        { name: 'floor: p90', value: p90(floor), unit: 'ms' },
      ]
      ctx.log(`assets: ${readdirSync(join(ROOT, 'dist', 'web', 'assets')).join(', ')}`)
      return measures
    } finally {
      await browser.close()
      await stop(server)
    }
  },
}
