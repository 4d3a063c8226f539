import t from 'tap'
import { IndexMap, sortKeys, type Bucket } from '../../../../data/store/embedded/index-map.js'
import type { Key } from '../../../../data/store/port.js'

/** A base built from plain entries, as an index file holds it. */
function baseOf(entries: [Key, number[]][]): IndexMap {
  const keys = sortKeys(entries.map(([k]) => k)) as Float64Array | string[]
  const byKey = new Map(entries)
  const starts = new Uint32Array(keys.length + 1)
  const ids: number[] = []
  for (let k = 0; k < keys.length; k++) {
    starts[k] = ids.length
    ids.push(...(byKey.get(keys[k]) as number[]))
  }
  starts[keys.length] = ids.length
  return new IndexMap({ keys, starts, ids: Float64Array.from(ids) })
}

const plain = (bucket: Bucket | undefined): number[] | undefined =>
  bucket === undefined ? undefined : typeof bucket === 'number' ? [bucket] : Array.from(bucket)

for (const kind of ['numbers', 'strings'] as const) {
  t.test(`an index over a base of ${kind} answers what a plain Map given the same changes answers`, async (t) => {
    let seed = 7
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      return seed % n
    }
    const key = (n: number): Key => (kind === 'numbers' ? n : `k${n}`)
    const model = new Map<Key, number[]>()
    for (let n = 0; n < 200; n += 1 + next(3)) model.set(key(n), n % 4 === 0 ? [n + 1, n + 2, n + 3] : [n + 1])
    const map = baseOf([...model])
    for (let step = 0; step < 3000; step++) {
      const k = key(next(260))
      if (next(3) === 0) {
        map.delete(k)
        model.delete(k)
      } else {
        const ids = [1 + next(50), 60 + next(50)]
        const lone = next(2) === 0
        map.set(k, lone ? ids[0] : [...ids])
        model.set(k, lone ? [ids[0]] : ids)
      }
      if (step % 500 === 0) t.equal(map.size, model.size, `size after ${step} changes`)
    }
    t.equal(map.size, model.size)
    for (let n = 0; n < 260; n++) t.same(plain(map.get(key(n))), model.get(key(n)), `key ${String(key(n))}`)
    const listed = [...map].map(([k, b]) => [k, plain(b)] as const)
    t.equal(listed.length, model.size, 'iteration lists each key once')
    t.same(new Map(listed), model)
    t.equal(map.get(kind === 'numbers' ? 'k1' : 1), undefined, 'a key of the other type is not there')
  })
}

t.test('a bucket read from the base is a view; a changed one is an array of its own', async (t) => {
  const map = baseOf([
    [1, [10, 11, 12]],
    [2, [20]],
  ])
  const view = map.get(1)
  t.ok(view instanceof Float64Array)
  t.equal(map.get(2), 20, 'a lone id is the bare number')
  map.set(1, [10, 12])
  t.same(map.get(1), [10, 12])
  t.same(Array.from(view as Float64Array), [10, 11, 12], 'the base is never written')
  t.same(sortKeys([3, 'a']), null, 'a mix of numbers and strings has no base order')
})
