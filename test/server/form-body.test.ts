import t from 'tap'
import { parse } from 'node:querystring'
import { nestedForm } from '../../server/form-body.js'

/** What hapi hands over for a form body: node's flat parse. */
const rebuilt = (body: string) => nestedForm(parse(body) as Record<string, unknown>)

t.test('bracketed keys become the objects and lists PHP clients meant', async (t) => {
  t.same(rebuilt('object_types[0]=post&object_types[1]=star'), { object_types: ['post', 'star'] })
  t.same(rebuilt('object_types[]=post&object_types[]=star&include_html=0'), { object_types: ['post', 'star'], include_html: '0' })
  t.same(rebuilt('clauses[0][object_type]=post&clauses[0][value][]=1&clauses[0][value][]=2&match_policy=include_any'), {
    clauses: [{ object_type: 'post', value: ['1', '2'] }],
    match_policy: 'include_any',
  })
})

t.test('a body without brackets in its keys is left as hapi parsed it', async (t) => {
  t.equal(rebuilt('text=hello+%5Bworld%5D&reply_to=3'), null)
  t.equal(rebuilt('grant_type=password&ids=1&ids=2'), null)
})

t.test('a hostile body stays as small as it was sent', async (t) => {
  const huge = rebuilt('a[999999999]=x')
  t.same(huge, { a: { 999999999: 'x' } }, 'a far index makes an object, not a sparse array')
  const deep = rebuilt('a[b][c][d][e][f][g][h][i]=x') as Record<string, unknown>
  t.match(JSON.stringify(deep), /\[g\]\[h\]\[i\]/, 'nesting past the depth stays a literal key')
  const polluting = rebuilt('__proto__[admin]=1&constructor[prototype][admin]=1&x[]=1') as Record<string, unknown>
  t.same(polluting, { x: ['1'] })
  t.equal(({} as Record<string, unknown>).admin, undefined)
  const many = rebuilt(Array.from({ length: 300 }, (_, i) => `ids[]=${i}`).join('&')) as { ids: unknown }
  t.notOk(Array.isArray(many.ids), 'more than 200 elements is no list a route will take')
})
