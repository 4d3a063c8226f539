import t from 'tap'
import { DeliveryLanes } from '../../../data/streams/delivery-lanes.js'

const busy = (ms: number): void => {
  const end = performance.now() + ms
  while (performance.now() < end);
}

t.test('deliveries run in slices: the event loop gets its turn long before a thousand busy steps are done', async (t) => {
  let done = 0
  let shed = 0
  const lanes = new DeliveryLanes<number>(
    async () => {
      await Promise.resolve()
      busy(1)
      done++
    },
    () => shed++,
  )
  const loopTurns: number[] = []
  const ticker = setInterval(() => loopTurns.push(done), 1)
  for (let i = 0; i < 1000; i++) lanes.add(i)
  const firstTurn = await new Promise<number>((resolve) => setImmediate(() => setImmediate(() => resolve(done))))
  t.ok(firstTurn < 100, `the loop had a turn after ${firstTurn} of 1,000 steps`)
  while (done + shed < 1000) await new Promise((r) => setImmediate(r))
  clearInterval(ticker)
  t.ok(loopTurns.length >= 10, `timers ran ${loopTurns.length} times while the steps went on`)
  t.equal(lanes.waiting, 0)
})

t.test('every item queued gets its step, in the order queued, also when added while others run', async (t) => {
  const seen: number[] = []
  const lanes = new DeliveryLanes<number>(async (n) => {
    seen.push(n)
    if (n < 100) lanes.add(n + 100)
  })
  for (let i = 0; i < 100; i++) lanes.add(i)
  while (seen.length < 200) await new Promise((r) => setImmediate(r))
  t.same(seen.slice(0, 100), [...Array(100).keys()], 'first come, first served')
  t.same(
    [...seen].sort((a, b) => a - b),
    [...Array(200).keys()],
    'each once',
  )
})

t.test('more work than the process can do in time: the streams queued last are shed, each either stepped or shed, never both', async (t) => {
  const stepped = new Set<number>()
  const shed = new Set<number>()
  const lanes = new DeliveryLanes<number>(
    async (n) => {
      busy(1)
      stepped.add(n)
    },
    (n) => shed.add(n),
  )
  for (let i = 0; i < 2000; i++) lanes.add(i)
  // The loop is held past the target before the first turn: the queue is then surely too long to serve in time.
  busy(600)
  while (lanes.waiting > 0) await new Promise((r) => setImmediate(r))
  await new Promise((r) => setTimeout(r, 20))
  t.ok(shed.size > 0, `${shed.size} shed`)
  t.ok(stepped.size >= 200, `${stepped.size} stepped`)
  t.equal(stepped.size + shed.size, 2000, 'every one accounted for')
  t.notOk(
    [...shed].some((n) => stepped.has(n)),
    'none both',
  )
  t.ok(Math.min(...shed) > Math.max(...[...stepped].slice(0, 100)), 'the first queued are served, the last shed')
})

t.test('a short queue is never cut, however slow its steps', async (t) => {
  let shed = 0
  let stepped = 0
  const lanes = new DeliveryLanes<number>(
    async () => {
      busy(6)
      stepped++
    },
    () => shed++,
  )
  for (let i = 0; i < 150; i++) lanes.add(i)
  while (stepped < 150) await new Promise((r) => setImmediate(r))
  t.equal(shed, 0)
})
