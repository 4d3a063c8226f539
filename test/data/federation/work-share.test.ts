/**
 * The gate federation work passes through (data/federation/work-share.ts):
 * no more pieces at once than allowed, a bounded line beyond them, the
 * queue's workers before new inbox POSTs, and no turn while the share's
 * credit is spent, charged as federation's own CPU time; a refusal says when
 * to try again. The clock is the test's own where time matters.
 */
import t from 'tap'
import { WorkShare, type Release } from '../../../data/federation/work-share.js'

const roomy = { share: 1, burstMs: 1_000_000 }

t.test('two at once; a third waits for a place, a fourth finds the line full', async (t) => {
  const gate = new WorkShare({ ...roomy, concurrency: 2, waiting: 1 })
  const first = await gate.enter()
  const second = await gate.enter()
  t.ok(first && second, 'the first two start at once')
  t.equal(gate.active, 2)
  let third: Release | null = null
  const waiting = gate.enter().then((release) => (third = release))
  t.equal(gate.queued, 1, 'the third waits')
  t.equal(await gate.enter(), null, 'the fourth finds the line full and is refused at once')
  t.equal(third, null, 'still waiting while both places are taken')
  first!()
  await waiting
  t.ok(third, 'the place freed goes to the one waiting')
  t.equal(gate.active, 2)
  t.equal(gate.queued, 0)
  second!()
  third!()
  t.equal(gate.active, 0)
})

t.test("the queue's pieces take no place: however many wait on slow servers, an inbox POST still gets its turn", async (t) => {
  const gate = new WorkShare({ ...roomy, concurrency: 1, waiting: 0 })
  const hanging = await Promise.all(Array.from({ length: 4 }, () => gate.enter({ first: true })))
  t.ok(hanging.every(Boolean), 'every worker of the queue starts')
  const post = await gate.enter()
  t.ok(post, 'the inbox POST is not refused')
  t.equal(await gate.enter(), null, 'a second inbox POST finds its one place taken and no line')
  post!()
  for (const release of hanging) release!()
  t.equal(gate.active, 0)
})

t.test('the queue\'s workers ("first") go before inbox POSTs waiting longer', async (t) => {
  const gate = new WorkShare({ ...roomy, concurrency: 1, waiting: 10 })
  const running = (await gate.enter())!
  const order: string[] = []
  const post = gate.enter().then((release) => {
    order.push('inbox POST')
    return release
  })
  const worker = gate.enter({ first: true }).then((release) => {
    order.push('queue worker')
    return release
  })
  running()
  ;(await worker)!()
  ;(await post)!()
  t.same(order, ['queue worker', 'inbox POST'])
})

/** A clock the test moves: the wall clock and the thread's CPU time, ms. */
function fakeClock() {
  const now = { wall: 0, cpu: 0 as number | null }
  return { now, clock: () => ({ ...now }) }
}

t.test('with the credit spent no piece starts, though a place is free; a refusal says when to retry', async (t) => {
  const { now, clock } = fakeClock()
  const gate = new WorkShare({ share: 0.1, concurrency: 4, burstMs: 50, waiting: 10, clock })
  const piece = (await gate.enter())!
  now.wall += 100
  now.cpu! += 100
  piece()
  t.equal(gate.spentMs, 100, 'the piece busy all along is charged its CPU time')
  t.equal(gate.active, 0, 'no piece running: a place is free')
  t.equal(await gate.enter({ waitMs: 0 }), null, 'no turn: 50 ms of credit, 100 spent, 10 earned')
  t.equal(gate.queued, 0, 'the refused piece left the line')
  t.ok(gate.retryAfterS() >= 1, `Retry-After ${gate.retryAfterS()} s`)
  now.wall += 1000
  const later = await gate.enter({ waitMs: 0 })
  t.ok(later, 'a second later the credit is back (100 ms earned)')
  later!()
})

t.test("what the rest of the server takes meanwhile, at its rate when no piece runs, is not federation's", async (t) => {
  // No piece running: local requests take half the thread.
  const { now, gate } = afterLocalRequests(500)
  // The piece runs 100 ms, the thread busy 70 ms of them, time to spare: 50 ms are the local requests'.
  await runPiece(gate, now, { wall: 100, cpu: 70 })
  t.equal(gate.spentMs, 20)
})

t.test('on a thread busy all along while pieces run, federation is charged all of its time: the local requests may have waited behind it', async (t) => {
  // No piece running: local requests take 80 % of the thread.
  const { now, gate } = afterLocalRequests(800)
  await runPiece(gate, now, { wall: 100, cpu: 100 })
  t.equal(gate.spentMs, 100, 'busy all along: all of it')
  await runPiece(gate, now, { wall: 100, cpu: 90 })
  // Busy 90 %, between spare (80 %) and saturated (95 %): a third of the rest's rate (80 %, counted as 75 % at most) is put down to the rest.
  t.ok(Math.abs(gate.spentMs - 100 - (90 - 25)) < 1e-9, `charged ${gate.spentMs - 100} ms of 90`)
})

t.test('on a server with time to spare federation may take what the rest leaves it, and its share at least', async (t) => {
  const { now, clock } = fakeClock()
  const gate = new WorkShare({ share: 0.2, concurrency: 2, burstMs: 50, waiting: 10, clock })
  t.equal(gate.allowance, 0.2, 'its share while the rest of the server has not been seen')
  for (const [localMs, allowance] of [
    [0, 0.8],
    [100, 0.7],
    [600, 0.2],
    [900, 0.2],
  ]) {
    // Long enough alone for what came before to be forgotten.
    now.wall += 20_000
    now.cpu! += localMs * 20
    await gate.enter({ waitMs: 0 }).then((release) => release?.())
    t.ok(Math.abs(gate.allowance - allowance) < 1e-3, `local requests taking ${localMs / 10} %: ${gate.allowance.toFixed(3)}`)
  }
  // Idle, it earns 80 % of the wall clock: 500 ms on a CPU, 50 of credit and 400 earned meanwhile, leave it 50 ms short; 63 ms later it starts again, not 250.
  now.wall += 20_000
  const piece = (await gate.enter())!
  now.wall += 500
  now.cpu! += 500
  piece()
  now.wall += 40
  t.equal(await gate.enter({ waitMs: 0 }), null, 'the credit spent, 40 ms later')
  now.wall += 30
  const again = await gate.enter({ waitMs: 0 })
  t.ok(again, '70 ms later it is earned back')
  again?.()
})

t.test('without the CPU time, a piece is charged its wall time, and federation holds to its share', async (t) => {
  const { now, clock } = fakeClock()
  now.cpu = null
  const gate = new WorkShare({ share: 0.2, concurrency: 2, burstMs: 1000, waiting: 10, clock })
  now.wall += 1000
  const piece = (await gate.enter())!
  now.wall += 30
  piece()
  t.equal(gate.spentMs, 30)
  t.equal(gate.allowance, 0.2, 'the rest of the server is not to be seen')
})

t.test('a release called twice frees one place', async (t) => {
  const gate = new WorkShare({ ...roomy, concurrency: 1, waiting: 0 })
  const release = (await gate.enter())!
  release()
  release()
  t.equal(gate.active, 0)
  const again = await gate.enter()
  t.ok(again)
  t.equal(await gate.enter(), null, 'the one place is taken again, not two')
  again!()
})

/** A gate after a second in which no piece ran and the thread spent `cpuMs` on local requests. */
function afterLocalRequests(cpuMs: number) {
  const { now, clock } = fakeClock()
  const gate = new WorkShare({ share: 0.2, concurrency: 2, burstMs: 1000, waiting: 10, clock })
  now.wall += 1000
  now.cpu! += cpuMs
  return { now, gate }
}

/** A piece that runs `wall` ms on the test's clock, the thread on a CPU `cpu` ms of them. */
async function runPiece(gate: WorkShare, now: { wall: number; cpu: number | null }, { wall, cpu }: { wall: number; cpu: number }) {
  const release = (await gate.enter())!
  now.wall += wall
  now.cpu! += cpu
  release()
}
