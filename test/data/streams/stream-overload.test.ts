import t from 'tap'
import { DRAIN_SECONDS, HEADROOM, MOST_SHED_AT_ONCE, RecentRate, streamsToShed, Throughput } from '../../../data/streams/stream-overload.js'

const load = (name: string, rate: number, backlog = 0) => ({ name, rate, backlog })
/** The names of the streams `streamsToShed` picks. */
const shedNames = (...args: Parameters<typeof streamsToShed<ReturnType<typeof load>>>) => streamsToShed(...args).map((s) => s.name)

t.test('while the process delivers what is asked with headroom, backlogs drained within a second, nobody is disconnected', async (t) => {
  t.equal(HEADROOM, 0.8)
  t.equal(DRAIN_SECONDS, 1)
  const streams = [load('a', 100), load('b', 200, 100)]
  t.same(streamsToShed(streams, 500, 0), [], '300 a second and 100 waiting: 400 of the 0.8 × 500 the process delivers')
  t.same(shedNames(streams, 450, 0), ['b'], 'more than that: the costlier goes')
})

t.test('over the headroom, the costliest go first, and only as many as the excess', async (t) => {
  const light = Array.from({ length: 50 }, (_, i) => load(`light${i}`, 2))
  const heavy = [load('heavy1', 300), load('heavy2', 250, 100), load('heavy3', 200)]
  // Asked: 100 + 750 a second and 100 waiting, 950 in all.
  t.same(shedNames([...light, ...heavy], 750, 0), ['heavy2'], 'budget 0.8 × 750 = 600: the one with the backlog (350) covers the excess of 350')
  const shed = shedNames([...light, ...heavy], 700, 0)
  t.same(shed, ['heavy2', 'heavy1'], 'budget 560: an excess of 390 takes the next costliest too')
  t.notOk(
    shed.some((name) => name.startsWith('light')),
    'no light stream goes while heavy ones can',
  )
})

t.test('what catching-up streams take is not there for live ones', async (t) => {
  const streams = [load('a', 200), load('b', 100)]
  t.same(streamsToShed(streams, 400, 0), [], '300 of a budget of 320')
  t.same(shedNames(streams, 400, 150), ['a'], 'of 320 − 150 left, the costlier goes')
})

t.test('one look sheds at most half of what is asked: the next, measuring afresh, sheds more if it must', async (t) => {
  t.equal(MOST_SHED_AT_ONCE, 0.5)
  const streams = Array.from({ length: 10 }, (_, i) => load(`s${i}`, 100))
  t.equal(streamsToShed(streams, 100, 0).length, 5, '1,000 asked of a budget of 80: half go now')
  t.equal(streamsToShed(streams.slice(5), 100, 0).length, 3, 'then 500 of 80: half again, rounded up to whole streams')
})

t.test('a process that delivered nothing lately cannot tell its pace, and waits for the next look', async (t) => {
  t.same(streamsToShed([load('a', 1), load('b', 0, 3)], 0, 0), [])
})

t.test('a recent rate counts events in the last few quarter seconds', async (t) => {
  const rate = new RecentRate()
  for (let i = 0; i < 100; i++) rate.add(10_000 + i) // 100 in the quarter second from 10 s
  t.equal(rate.perSecond(10_125), 100 / 0.875, 'over three whole quarters (none counted yet) and this one so far')
  rate.add(10_600)
  t.equal(rate.perSecond(10_700), 101 / 0.95)
  t.equal(rate.perSecond(11_050), 1 / 0.8, 'a second later the busy quarter is forgotten')
  t.equal(rate.perSecond(20_000), 0, 'seconds later: nothing')
})

t.test('throughput is events per second of the time the deliveries had work, idle time not counted', async (t) => {
  const throughput = new Throughput()
  t.equal(throughput.perBusySecond(0), 0, 'nothing delivered: nothing known')
  // 100 events in 50 ms of work, then idle for two seconds, then 100 more in 50 ms.
  for (let i = 0; i < 100; i++) throughput.add(i * 0.5, 1000 + i * 0.5)
  for (let i = 0; i < 100; i++) throughput.add(50 + i * 0.5, 3000 + i * 0.5)
  t.equal(Math.round(throughput.perBusySecond(100)), 1990, '199 events after the first, in 100 ms of work: 1,990 a second')
  t.equal(throughput.busyShare(100, 3050), 100 / 2050, 'busy 100 ms of the 2,050 since the first mark')
  for (let i = 0; i < 10; i++) throughput.add(100 + i * 100, 10_000 + i * 300)
  t.ok(Math.abs(throughput.perBusySecond(1000) - 10) < 1, 'seconds later only the last few count: 10 a second of slow work')
  t.equal(throughput.busyShare(1000, 12_700), 900 / 2700, 'busy a third of the time since the oldest mark kept')
})
