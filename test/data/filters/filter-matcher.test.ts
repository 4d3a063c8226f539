import t from 'tap'
import { compileFilter, type FilterClause, type FilterVariables, type MatchPolicy } from '../../../data/index.js'

/** Bob's post as an app stream sends it: ids are strings, counts numbers. */
const post = {
  meta: { type: 'post', timestamp: 1764000000, is_deleted: false },
  data: {
    id: '5',
    text: 'hello world #tea',
    user: { id: '2', username: 'bob', counts: { followers: 12 } },
    num_stars: 3,
    thread_id: '5',
    machine_only: false,
    entities: {
      hashtags: [{ name: 'a' }, { name: 'tea' }],
      mentions: [{ id: '3', name: 'carol' }],
      links: [],
    },
    annotations: [{ type: 'net.example/*', value: { 'a/b': 'slash', 'x~y': 'tilde' } }],
  },
}
const star = { meta: { type: 'star' }, data: { post: post.data, user: { id: '1', username: 'alice' } } }

const none: FilterVariables = { authorizedUserIds: new Set() }
const clause = (
  field: string,
  operator: FilterClause['operator'],
  value: FilterClause['value'],
  object_type: FilterClause['object_type'] = 'post',
): FilterClause => ({
  object_type,
  operator,
  field,
  value,
})
const passes = (c: FilterClause, message: unknown = post, vars = none, match_policy: MatchPolicy = 'include_any') =>
  compileFilter({ match_policy, clauses: [c] })(message, vars)

t.test('equals compares scalars as strings, so 2 and "2" match a string id, and booleans as true/false', async (t) => {
  t.ok(passes(clause('/data/user/id', 'equals', '2')))
  t.ok(passes(clause('/data/user/id', 'equals', 2)), 'a number value matches the string id')
  t.ok(passes(clause('/data/num_stars', 'equals', '3')), 'a string value matches a number field')
  t.notOk(passes(clause('/data/user/id', 'equals', '3')))
  t.ok(passes(clause('/meta/is_deleted', 'equals', 'false')))
  t.notOk(passes(clause('/meta/is_deleted', 'equals', 'true')))
  t.notOk(passes(clause('/data/user', 'equals', '[object Object]')), 'an object is not a scalar')
  t.notOk(passes(clause('/data/nothing', 'equals', 'undefined')), 'a missing field matches nothing')
})

t.test('matches holds when the value is a substring of a string field', async (t) => {
  t.ok(passes(clause('/data/text', 'matches', 'hello')))
  t.ok(passes(clause('/data/text', 'matches', 'o w')))
  t.notOk(passes(clause('/data/text', 'matches', 'Hello')), 'case matters')
  t.notOk(passes(clause('/data/num_stars', 'matches', '3')), 'a number field is not a string')
})

t.test('lt, le, gt and ge read the field as an integer, numeric strings too, and never match a non-number', async (t) => {
  t.ok(passes(clause('/data/num_stars', 'lt', 4)))
  t.notOk(passes(clause('/data/num_stars', 'lt', 3)))
  t.ok(passes(clause('/data/num_stars', 'le', 3)))
  t.notOk(passes(clause('/data/num_stars', 'le', 2)))
  t.ok(passes(clause('/data/num_stars', 'gt', 2)))
  t.notOk(passes(clause('/data/num_stars', 'gt', 3)))
  t.ok(passes(clause('/data/num_stars', 'ge', 3)))
  t.notOk(passes(clause('/data/num_stars', 'ge', 4)))
  t.ok(passes(clause('/data/id', 'gt', 4)), 'the string id "5" reads as 5')
  t.ok(passes(clause('/data/id', 'lt', '10')), 'a form-encoded bound "10" is 10, not the text "10"')
  t.ok(passes(clause('/data/user/counts/followers', 'ge', '12')))
  t.notOk(passes(clause('/data/text', 'gt', -1000)), 'text is no number')
  t.notOk(passes(clause('/meta/is_deleted', 'lt', 1)), 'a boolean is no number')
  t.notOk(passes(clause('/data/user', 'gt', 0)), 'an object is no number')
})

t.test('one_of holds when the field equals an element of the list, numbers and strings alike', async (t) => {
  t.ok(passes(clause('/data/user/id', 'one_of', ['1', '2'])))
  t.ok(passes(clause('/data/user/id', 'one_of', [7, 2])))
  t.notOk(passes(clause('/data/user/id', 'one_of', ['1', '3'])))
  t.notOk(passes(clause('/data/user/id', 'one_of', [])))
})

t.test('$authorized_userids stands for the ids the stream was given', async (t) => {
  const c = clause('/data/user/id', 'one_of', '$authorized_userids')
  t.ok(passes(c, post, { authorizedUserIds: new Set(['1', '2']) }))
  t.notOk(passes(c, post, { authorizedUserIds: new Set(['1']) }))
  t.notOk(passes(c, post, none))
  const matcher = compileFilter({ match_policy: 'include_any', clauses: [c] })
  t.ok(matcher(post, { authorizedUserIds: new Set(['2']) }), 'one compiled filter, evaluated under other variables')
  t.notOk(matcher(post, { authorizedUserIds: new Set(['9']) }))
})

t.test('a * segment reaches every element of a list, and the clause holds if any element does', async (t) => {
  t.ok(passes(clause('/data/entities/hashtags/*/name', 'equals', 'tea')))
  t.ok(passes(clause('/data/entities/hashtags/*/name', 'matches', 'te')))
  t.notOk(passes(clause('/data/entities/hashtags/*/name', 'equals', 'coffee')))
  t.notOk(passes(clause('/data/entities/links/*/url', 'matches', '')), 'an empty list has no element to match')
  t.ok(passes(clause('/data/entities/mentions/*/id', 'one_of', '$authorized_userids'), post, { authorizedUserIds: new Set(['3']) }))
  t.notOk(passes(clause('/data/user/*', 'equals', '2')), 'a * over an object reaches nothing')
  t.ok(passes(clause('/data/entities/hashtags/1/name', 'equals', 'tea')), 'a numeric segment is a list index')
  t.notOk(passes(clause('/data/entities/hashtags/2/name', 'equals', 'tea')), 'past the end')
  t.notOk(passes(clause('/data/entities/hashtags/01/name', 'equals', 'tea')), 'an index with a leading zero is no index')
})

t.test('~2 is a literal *, ~1 a / and ~0 a ~ inside a segment', async (t) => {
  t.ok(passes(clause('/data/annotations/0/type', 'equals', 'net.example/*')))
  const starKey = { meta: { type: 'post' }, data: { '*': 'star', list: ['x'] } }
  t.ok(passes(clause('/data/~2', 'equals', 'star'), starKey))
  t.notOk(passes(clause('/data/*', 'equals', 'star'), starKey), '* alone is every element, not the key *')
  t.ok(passes(clause('/data/annotations/0/value/a~1b', 'equals', 'slash')))
  t.ok(passes(clause('/data/annotations/0/value/x~0y', 'equals', 'tilde')))
})

t.test('a clause holds only for messages of its object type', async (t) => {
  t.notOk(passes(clause('/data/user/id', 'equals', '1', 'post'), star), 'a post clause never holds for a star')
  t.ok(passes(clause('/data/user/id', 'equals', '1', 'star'), star))
  t.notOk(passes(clause('/data/user/id', 'equals', '2', 'star')), 'a star clause never holds for a post')
  t.ok(passes(clause('/data/text', 'matches', 'x', 'star'), post, none, 'exclude_any'), 'an exclude filter lets other types through')
  t.notOk(passes(clause('/data/text', 'matches', 'hello'), { data: post.data }, none), 'a message without meta.type matches no clause')
  t.notOk(passes(clause('/data/text', 'matches', 'hello'), 'not an object', none))
})

t.test('the four policies combine the clauses as the spec says', async (t) => {
  const hit = clause('/data/text', 'matches', 'hello')
  const alsoHit = clause('/data/user/id', 'equals', '2')
  const miss = clause('/data/user/id', 'equals', '3')
  const run = (match_policy: MatchPolicy, clauses: FilterClause[]) => compileFilter({ match_policy, clauses })(post, none)
  const cases: [MatchPolicy, FilterClause[], boolean][] = [
    ['include_any', [miss, hit], true],
    ['include_any', [miss, miss], false],
    ['include_all', [hit, alsoHit], true],
    ['include_all', [hit, miss], false],
    ['exclude_any', [miss, hit], false],
    ['exclude_any', [miss, miss], true],
    ['exclude_all', [hit, alsoHit], false],
    ['exclude_all', [hit, miss], true],
  ]
  for (const [policy, clauses, expected] of cases) {
    t.equal(run(policy, clauses), expected, `${policy} over ${clauses.map((c) => (c === miss ? 'miss' : 'hit')).join(', ')}`)
  }
})

t.test('a malformed stored clause never holds and never throws', async (t) => {
  const broken = [
    clause('no/slash', 'equals', 'x'),
    clause('/data/~3', 'equals', 'x'),
    clause('/data/num_stars', 'gt', 'many'),
    clause('/data/user/id', 'one_of', '2'),
    { ...clause('/data/text', 'equals', 'x'), operator: 'contains' } as unknown as FilterClause,
    clause('/data/user/id', 'equals', [2] as never),
  ]
  for (const c of broken) t.notOk(passes(c), `${c.operator} ${c.field} ${JSON.stringify(c.value)}`)
  t.notOk(passes(clause('/data/constructor', 'matches', 'function')), 'inherited keys are not fields')
  t.notOk(passes(clause('/data/text/length', 'gt', 0)), 'a string has no fields')
})
