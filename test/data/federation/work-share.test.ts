/**
 * The gate federation work passes through (data/federation/work-share.ts):
 * no more pieces at once than allowed, a bounded line beyond them, the
 * queue's workers before new inbox POSTs, and no turn while the share's
 * credit is spent; a refusal says when to try again.
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

t.test('a piece refused after its wait, when the credit is spent, is told to retry in a second or more', async (t) => {
  // Credit builds up at a thousandth of the wall clock: 5 ms of work leave the gate shut for about 5 s.
  const gate = new WorkShare({ share: 0.001, concurrency: 4, burstMs: 1, waiting: 10 })
  const piece = (await gate.enter())!
  await new Promise((resolve) => setTimeout(resolve, 5))
  piece()
  t.equal(gate.active, 0, 'no piece running: a place is free')
  t.equal(await gate.enter({ waitMs: 0 }), null, 'no turn while the credit is spent')
  t.equal(gate.queued, 0, 'the refused piece left the line')
  t.ok(gate.retryAfterS() >= 1, `Retry-After ${gate.retryAfterS()} s`)
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
