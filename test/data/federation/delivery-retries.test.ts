/**
 * The schedule of a failed delivery's retries (README's Federation section):
 * the first within 5 to 10 seconds, each wait twice the last (with Fedify's
 * jitter) up to 6 hours, 18 retries spanning at least a day and a half,
 * then given up with a warning.
 */
import { Temporal } from '@js-temporal/polyfill'
import t from 'tap'
import { deliveryRetries } from '../../../data/federation/build-federation.js'

const HOUR = 3600
const waitOf = (attempts: number): number | null => {
  const delay = deliveryRetries({ attempts, elapsedTime: Temporal.Duration.from({ seconds: 0 }) })
  return delay === null ? null : delay.total({ unit: 'second' })
}

t.test('retries come after 5 s, then twice as long each time, at most 6 hours apart, for about a day and three quarters', async (t) => {
  for (let round = 0; round < 20; round++) {
    let total = 0
    for (let attempts = 0; attempts < 18; attempts++) {
      const wait = waitOf(attempts)
      const least = Math.min(5 * 2 ** attempts, 6 * HOUR)
      const most = Math.min(10 * 2 ** attempts, 6 * HOUR)
      if (wait === null || wait < least || wait > most) {
        t.fail(`retry ${attempts + 1} waits ${wait} s, not ${least} to ${most} s`)
        return
      }
      total += wait
    }
    if (total < 41 * HOUR || total > 48 * HOUR) t.fail(`the retries span ${total / HOUR} hours`)
  }
  t.ok(waitOf(0)! <= 10, 'the first retry within 10 seconds')
  t.equal(waitOf(17), 6 * HOUR, 'the last waits 6 hours')

  const warnings: string[] = []
  // Only its own: in a group's shared process another file's server may warn of something else meanwhile.
  const warn = (w: Error) => w.message.includes('given up') && warnings.push(w.message)
  process.on('warning', warn)
  t.teardown(() => process.off('warning', warn))
  t.equal(waitOf(18), null, 'the 19th failed try is the last')
  await new Promise((r) => setImmediate(r))
  t.same(warnings, ['svc: a federation delivery was given up after 19 tries'])
})
