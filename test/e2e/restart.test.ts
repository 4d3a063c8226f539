/**
 * A server killed with -9 under write load is restarted at once, three
 * times in a row, while each killed server is still a zombie: every restart
 * takes the data dir and finds every acknowledged write. The 20-cycle run is
 * `npm run bench:restart`.
 */
import t from 'tap'
import { initDir } from '../fixtures/svc-process.js'
import { restartCycles } from '../fixtures/restart-cycles.js'

t.test('three kill -9 and immediate restart cycles under write load all restart and lose nothing', async (t) => {
  const results = await restartCycles(await initDir(t), 3)
  t.equal(results.length, 3, 'every restart took the data dir')
  for (const r of results) {
    t.ok(r.acknowledged >= 30, `cycle ${r.cycle}: ${r.acknowledged} writes acknowledged before the kill`)
    t.equal(r.lost, 0, `cycle ${r.cycle}: none lost`)
  }
})
