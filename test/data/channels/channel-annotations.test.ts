import t from 'tap'
import { broadcastFrequency } from '../../../data/channels/channel-annotations.js'

const DAY = 86_400_000
const now = Date.parse('2026-03-31T12:00:00Z')
const daysAgo = (n: number): number => now - n * DAY
const every = (step: number, days = 30): number[] => Array.from({ length: Math.floor(days / step) }, (_, i) => daysAgo(i * step))

t.test('a broadcast’s frequency counts the last 30 days in messages per day, and says it in words', async (t) => {
  const old = daysAgo(400)
  t.same(broadcastFrequency(every(0.25), old, now), { avg_freq: 'About 4 messages a day', intensity: 4 })
  t.same(broadcastFrequency(every(2), old, now), { avg_freq: 'About 4 messages a week', intensity: 0.5 })
  t.same(broadcastFrequency(every(15), old, now), { avg_freq: 'About 2 messages a month', intensity: 0.067 })
  t.same(
    broadcastFrequency([daysAgo(1), daysAgo(45), daysAgo(90)], old, now),
    { avg_freq: 'About 1 message a month', intensity: 0.033 },
    'older messages do not count',
  )
  t.same(broadcastFrequency([], old, now), { avg_freq: 'Less than one message a month', intensity: 0 })
})

t.test('a young broadcast is measured over its own life, at least one day', async (t) => {
  t.same(broadcastFrequency([daysAgo(1), daysAgo(2), daysAgo(3), daysAgo(4)], daysAgo(8), now), { avg_freq: 'About 4 messages a week', intensity: 0.5 })
  t.same(broadcastFrequency([now, now], now - 3_600_000, now), { avg_freq: 'About 2 messages a day', intensity: 2 })
})
