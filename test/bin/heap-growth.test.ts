/**
 * `svc serve` bounds how far V8 lets the heap grow past its live part,
 * unless the operator started node with their own bound.
 */
import t from 'tap'
import { boundHeapGrowth, HEAP_GROWING_PERCENT } from '../../bin/commands/heap-growth.js'

t.test('the bound is set when node was started without one', async (t) => {
  t.equal(boundHeapGrowth([], undefined), `--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
  t.equal(boundHeapGrowth(['--enable-source-maps'], '--max-old-space-size=256'), `--heap-growing-percent=${HEAP_GROWING_PERCENT}`, 'other flags')
})

t.test('an operator’s own bound is kept, however it was spelled and wherever it was given', async (t) => {
  t.equal(boundHeapGrowth(['--heap-growing-percent=80'], undefined), null, 'on the command line')
  t.equal(boundHeapGrowth([], '--max-old-space-size=256  --heap_growing_percent=30'), null, 'in NODE_OPTIONS, with underscores')
  t.equal(boundHeapGrowth([], '--heap-growing-percent-x=1'), `--heap-growing-percent=${HEAP_GROWING_PERCENT}`, 'another flag that starts alike')
})
