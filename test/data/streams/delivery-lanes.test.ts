import t from 'tap'
import { DeliveryLanes } from '../../../data/streams/delivery-lanes.js'

const busy = (ms: number): void => {
  const end = performance.now() + ms
  while (performance.now() < end);
}

t.test('deliveries run in slices: the event loop gets its turn long before a thousand busy steps are done', async (t) => {
  let done = 0
  const lanes = new DeliveryLanes<number>(async () => {
    await Promise.resolve()
    busy(1)
    done++
  })
  const loopTurns: number[] = []
  const ticker = setInterval(() => loopTurns.push(done), 1)
  for (let i = 0; i < 1000; i++) lanes.add(i)
  const firstTurn = await new Promise<number>((resolve) => setImmediate(() => setImmediate(() => resolve(done))))
  t.ok(firstTurn < 100, `the loop had a turn after ${firstTurn} of 1,000 steps`)
  while (done < 1000) await new Promise((r) => setImmediate(r))
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

t.test(
  'more work than the process can do in time: the owner hears the lanes are behind, at most every half second, and every item still gets its step',
  async (t) => {
    const stepped: number[] = []
    const told: { waited: number; at: number }[] = []
    const lanes = new DeliveryLanes<number>(
      async (n) => {
        busy(1)
        stepped.push(n)
      },
      (waited) => told.push({ waited, at: performance.now() }),
    )
    for (let i = 0; i < 2000; i++) lanes.add(i)
    // The loop is held past the target before the first turn: the head has then surely waited too long.
    busy(600)
    while (stepped.length < 2000) await new Promise((r) => setImmediate(r))
    t.ok(told.length >= 1, `told ${told.length} times`)
    t.ok(told[0].waited >= 500, `the head had waited ${told[0].waited} ms`)
    // Timed here, a moment after the lanes looked at their clock: a loaded machine may stop this process in between, so some slack.
    const gaps = told.slice(1).map((now, i) => Math.round(now.at - told[i].at))
    t.ok(
      gaps.every((gap) => gap >= 450),
      `every half second at most: ${gaps.join(', ')} ms apart`,
    )
    t.same(stepped, [...Array(2000).keys()], "each once, in order: what to drop is the owner's to decide")
  },
)

t.test('a queue served within the target is never behind', async (t) => {
  let told = 0
  let stepped = 0
  const lanes = new DeliveryLanes<number>(
    async () => {
      stepped++
    },
    () => told++,
  )
  for (let i = 0; i < 50; i++) lanes.add(i)
  while (stepped < 50) await new Promise((r) => setImmediate(r))
  t.equal(told, 0)
})
