/**
 * Where a server's main thread spends a window of load, by svc's layers:
 * the store (`data/store`), the other domain services (`data/`), the
 * presenters (`server/present`), the rest of svc's transport (`server/`),
 * hapi and its helpers, other packages, Node's own code, and the garbage
 * collector and idle time as V8 reports them. Each sample is charged to the
 * nearest frame of known code on its stack, so JSON.stringify called by a
 * presenter is presentation, and a Map lookup in the store is the store.
 *
 * The server is started with `--inspect=127.0.0.1:0`; the profiler is driven
 * over the inspector's WebSocket (the Chrome DevTools Protocol), one profile
 * per window.
 */
import { writeFileSync } from 'node:fs'
import WebSocket from 'ws'

export const LAYERS = ['store', 'domain', 'presenters', 'transport', 'hapi', 'packages', 'node', 'gc', 'idle', 'other'] as const
export type Layer = (typeof LAYERS)[number]

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string }
  children?: number[]
}

interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

/** The layer of one frame, or null when it says nothing (native code: charged to its caller). */
function layerOfFrame(frame: ProfileNode['callFrame']): Layer | null {
  const { url, functionName } = frame
  if (functionName === '(garbage collector)') return 'gc'
  if (functionName === '(idle)') return 'idle'
  if (functionName === '(program)' || functionName === '(root)') return 'other'
  if (url === '') return null
  if (url.includes('/node_modules/@hapi/') || url.includes('/node_modules/joi/') || url.includes('/node_modules/@sideway/')) return 'hapi'
  if (url.includes('/node_modules/')) return 'packages'
  if (url.includes('/dist/data/store/')) return 'store'
  if (url.includes('/dist/data/')) return 'domain'
  if (url.includes('/dist/server/present/')) return 'presenters'
  if (url.includes('/dist/server/')) return 'transport'
  if (url.startsWith('node:')) return 'node'
  return 'other'
}

/** Milliseconds of the profile per layer. */
export function layersOf(profile: Profile): Record<Layer, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const memo = new Map<number, Layer>()
  const layerOf = (id: number): Layer => {
    const known = memo.get(id)
    if (known) return known
    const own = layerOfFrame((byId.get(id) as ProfileNode).callFrame)
    const up = parent.get(id)
    const layer = own ?? (up === undefined ? 'other' : layerOf(up))
    memo.set(id, layer)
    return layer
  }
  const out = Object.fromEntries(LAYERS.map((l) => [l, 0])) as Record<Layer, number>
  profile.samples.forEach((id, i) => (out[layerOf(id)] += (profile.timeDeltas[i] ?? 0) / 1000))
  return out
}

/** A connection to a process's inspector. */
export class Inspector {
  private nextId = 1
  private readonly waiting = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>()

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } }
      const w = msg.id === undefined ? undefined : this.waiting.get(msg.id)
      if (!w) return
      this.waiting.delete(msg.id as number)
      if (msg.error) w.reject(new Error(msg.error.message))
      else w.resolve(msg.result)
    })
  }

  /** Connects to an inspector's WebSocket address (`Debugger listening on ws://...`). */
  static async connect(url: string): Promise<Inspector> {
    const ws = new WebSocket(url)
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    return new Inspector(ws)
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<any> {
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      this.ws.send(JSON.stringify({ id, method, params }))
    })
  }

  /** Profiles the main thread while `work` runs; answers its result and the window's layers. */
  /** Profiles the main thread while `work` runs; with `saveAs`, also keeps the whole profile there (for DevTools). */
  async profile<T>(work: () => Promise<T>, saveAs?: string): Promise<{ result: T; layers: Record<Layer, number> }> {
    await this.send('Profiler.enable')
    await this.send('Profiler.setSamplingInterval', { interval: 1000 })
    await this.send('Profiler.start')
    const result = await work()
    const { profile } = (await this.send('Profiler.stop')) as { profile: Profile }
    if (saveAs) writeFileSync(saveAs, JSON.stringify(profile))
    return { result, layers: layersOf(profile) }
  }

  close(): void {
    this.ws.close()
  }
}
