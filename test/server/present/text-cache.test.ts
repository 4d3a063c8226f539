import t from 'tap'
import { textCachePerDomain } from '../../../server/present/text-cache.js'

const limits = { max: 3, maxChars: 20, charsOf: (kept: { json: string }) => kept.json.length }

t.test("alice's and bob's instances keep their own rows, bounded by count", async (t) => {
  const cacheOf = textCachePerDomain(limits)
  const alices = {}
  const bobs = {}
  cacheOf(alices).set(1, { json: 'alice' })
  t.equal(cacheOf(alices).get(1)?.json, 'alice')
  t.equal(cacheOf(bobs).get(1), undefined, 'another domain never sees alice’s row')
  for (const id of [2, 3, 4]) cacheOf(alices).set(id, { json: 'x' })
  t.equal(cacheOf(alices).size, 3)
  t.equal(cacheOf(alices).get(1), undefined, 'the least recently used row went first')
})

t.test('a few long texts cannot hold more characters than the bound', async (t) => {
  const cache = textCachePerDomain(limits)({})
  cache.set(1, { json: 'a'.repeat(9) })
  cache.set(2, { json: 'b'.repeat(9) })
  cache.set(3, { json: 'c'.repeat(9) })
  t.equal(cache.get(1), undefined, 'the oldest went to make room')
  t.equal(cache.calculatedSize, 18)
  cache.set(4, { json: 'd'.repeat(21) })
  t.equal(cache.get(4), undefined, 'a text over the whole bound is not kept at all')
  t.equal(cache.get(3)?.json, 'c'.repeat(9), 'and it pushed nothing out')
})
