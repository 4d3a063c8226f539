/**
 * JSON text made from typed parts: whatever the parts, the text is what
 * JSON.stringify writes for the object they make.
 */
import t from 'tap'
import { fieldsOf, RawJson } from '../../server/json-text.js'

const values: Record<string, unknown> = {
  text: 'café ☕ "quoted" \\ \u0000 \u2028',
  zero: -0,
  big: 1e21,
  nan: NaN,
  infinite: -Infinity,
  yes: true,
  no: false,
  nothing: null,
  absent: undefined,
  list: [1, 'two', null, undefined, { three: 3 }],
  empty: [],
  nested: { a: { b: [] }, c: undefined },
  fn: () => 1,
}

t.test('fields of any values are written as JSON.stringify writes the object', async (t) => {
  t.equal(fieldsOf(values).object().json, JSON.stringify(values))
  t.equal(fieldsOf({}).object().json, '{}')
  t.equal(fieldsOf({ absent: undefined }).object().json, '{}')
})

t.test('parts joined one after another make the object of all their fields, in order', async (t) => {
  const { text, zero, ...rest } = values
  const made = fieldsOf({}).and(fieldsOf({ text })).with('zero', zero).with('absent', undefined).and(fieldsOf(rest)).and(fieldsOf({}))
  t.equal(made.object().json, JSON.stringify({ text, zero, ...rest }))
  t.equal(fieldsOf({}).with('n', 1).object().json, '{"n":1}')
})

t.test('text already made is written as it is, alone or in a list, and reads back as its value', async (t) => {
  const user = RawJson.of({ id: '1', name: 'Alice ☕' })
  const other = fieldsOf({ id: '2' }).object()
  const post = fieldsOf({ user, reposters: [user, other], starred_by: [] as RawJson[] }).with('repost_of', fieldsOf({ user }).object())
  const plain = { user: user.toJSON(), reposters: [user.toJSON(), other.toJSON()], starred_by: [], repost_of: { user: user.toJSON() } }
  t.equal(post.object().json, JSON.stringify(plain))
  t.same(post.object().toJSON(), plain)
  t.equal(JSON.stringify({ post: post.object() }), JSON.stringify({ post: plain }), 'inside other values, it serializes as its value')
})
