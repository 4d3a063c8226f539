import t from 'tap'
import { FILTER_MAX_CLAUSES, FILTER_NAME_MAX_LENGTH, type FilterInput, type Viewer } from '../../../data/index.js'
import { makeDomainInstance, type DomainInstance } from '../../fixtures/instance.js'
import { recordEvents } from '../../fixtures/events.js'

const rollouts: FilterInput = {
  name: 'Posts about rollouts',
  match_policy: 'include_any',
  clauses: [{ object_type: 'post', operator: 'matches', field: '/data/entities/hashtags/*/name', value: 'rollout' }],
}
const fromFriends: FilterInput = {
  match_policy: 'exclude_all',
  clauses: [
    { object_type: 'post', operator: 'one_of', field: '/data/user/id', value: '$authorized_userids' },
    { object_type: 'star', operator: 'ge', field: '/data/post/num_stars', value: '5' },
  ],
}

const viewers = async (svc: DomainInstance, ...names: string[]): Promise<Viewer[]> => {
  const made: Viewer[] = []
  for (const name of names) made.push(await svc.domain.auth.tokens.authenticate((await svc.person(name)).token))
  return made
}

t.test('alice saves filters, lists them oldest first and reads each back', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice] = await viewers(svc, 'alice')
  const first = await svc.domain.filters.create(alice, rollouts)
  const second = await svc.domain.filters.create(alice, fromFriends)
  t.match(first, { user_id: alice.user!.id, name: 'Posts about rollouts', match_policy: 'include_any', clauses: rollouts.clauses })
  t.notOk('app_id' in first)
  t.notOk('name' in second, 'no name given, none kept')
  t.same(second.clauses[1].value, '5', 'the value as given')
  t.same(
    (await svc.domain.filters.list(alice)).map((f) => f.id),
    [first.id, second.id],
  )
  t.same(await svc.domain.filters.get(alice, first.id), first)
})

t.test("bob neither sees nor changes alice's filters: for him they do not exist", async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob] = await viewers(svc, 'alice', 'bob')
  const filter = await svc.domain.filters.create(alice, rollouts)
  t.same(await svc.domain.filters.list(bob), [])
  await t.rejects(svc.domain.filters.get(bob, filter.id), { code: 'not_found' })
  await t.rejects(svc.domain.filters.replace(bob, filter.id, fromFriends), { code: 'not_found' })
  await t.rejects(svc.domain.filters.remove(bob, filter.id), { code: 'not_found' })
  t.same(await svc.domain.filters.removeAll(bob), [])
  t.same(await svc.domain.filters.get(alice, filter.id), filter, 'still there, unchanged')
  await t.rejects(svc.domain.filters.get(alice, 9999), { code: 'not_found' })
  await t.rejects(svc.domain.filters.list({}), { code: 'forbidden' }, 'filters need a user')
  await t.rejects(svc.domain.filters.create({ app: svc.app }, rollouts), { code: 'forbidden' })
})

t.test('replacing a filter keeps its id and creation time and drops what the new one leaves out', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice] = await viewers(svc, 'alice')
  const filter = await svc.domain.filters.create(alice, rollouts)
  const replaced = await svc.domain.filters.replace(alice, filter.id, fromFriends)
  t.equal(replaced.id, filter.id)
  t.equal(replaced.created_at, filter.created_at)
  t.type(replaced.updated_at, 'string')
  t.notOk('name' in replaced, 'the old name is gone')
  t.equal(replaced.match_policy, 'exclude_all')
  t.same(replaced.clauses, fromFriends.clauses)
  t.same(await svc.domain.filters.get(alice, filter.id), replaced)
  await t.rejects(svc.domain.filters.replace(alice, filter.id, { ...rollouts, clauses: [] }), { code: 'invalid' })
  t.same(await svc.domain.filters.get(alice, filter.id), replaced, 'a refused replacement changes nothing')
})

t.test('deleting answers the deleted filters; deleting all leaves the other users alone', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob] = await viewers(svc, 'alice', 'bob')
  const one = await svc.domain.filters.create(alice, rollouts)
  const two = await svc.domain.filters.create(alice, fromFriends)
  const bobs = await svc.domain.filters.create(bob, rollouts)
  t.same(await svc.domain.filters.remove(alice, one.id), one)
  await t.rejects(svc.domain.filters.get(alice, one.id), { code: 'not_found' })
  const three = await svc.domain.filters.create(alice, rollouts)
  t.same(await svc.domain.filters.removeAll(alice), [two, three])
  t.same(await svc.domain.filters.list(alice), [])
  t.same(await svc.domain.filters.list(bob), [bobs])
})

t.test("an app stream's inline filter is in no user's list, and other services read and delete it by id", async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice] = await viewers(svc, 'alice')
  const inline = await svc.domain.filters.createForApp(svc.app.id, fromFriends)
  t.equal(inline.app_id, svc.app.id)
  t.notOk('user_id' in inline)
  t.same(await svc.domain.filters.list(alice), [])
  await t.rejects(svc.domain.filters.get(alice, inline.id), { code: 'not_found' })
  t.same(await svc.domain.filters.byId(inline.id), inline)
  await t.rejects(svc.domain.filters.createForApp(svc.app.id, { ...fromFriends, match_policy: 'any' }), { code: 'invalid' })
  t.same(await svc.domain.filters.removeById(inline.id), inline)
  t.equal(await svc.domain.filters.byId(inline.id), null)
  t.equal(await svc.domain.filters.removeById(inline.id), null, 'deleting it again finds nothing')
})

t.test('every change is announced with the filter, after its commit', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice] = await viewers(svc, 'alice')
  const seen = recordEvents(svc)
  const stored: unknown[] = []
  svc.domain.events.on('filter.created', (e) => {
    stored.push(svc.store.read.filters.get(e.payload.filter.id))
  })
  const filter = await svc.domain.filters.create(alice, rollouts)
  const replaced = await svc.domain.filters.replace(alice, filter.id, fromFriends)
  const inline = await svc.domain.filters.createForApp(svc.app.id, rollouts)
  await svc.domain.filters.removeAll(alice)
  await svc.domain.filters.removeById(inline.id)
  t.same(
    seen.map((e) => [e.name, (e.payload as { filter: { id: number } }).filter.id]),
    [
      ['filter.created', filter.id],
      ['filter.updated', filter.id],
      ['filter.created', inline.id],
      ['filter.deleted', filter.id],
      ['filter.deleted', inline.id],
    ],
  )
  t.same((seen[1].payload as { filter: unknown }).filter, replaced)
  t.same(await Promise.all(stored), [filter, inline], 'the listener finds the row already stored')
})

t.test('bad filters are refused with a message naming the clause and the field', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice] = await viewers(svc, 'alice')
  const clause = rollouts.clauses[0]
  const bad = (change: Record<string, unknown>): FilterInput => ({ ...rollouts, clauses: [clause, { ...clause, ...change }] })
  const cases: [string, FilterInput, RegExp][] = [
    ['an unknown policy', { ...rollouts, match_policy: 'include_some' }, /^match_policy must be one of include_any, include_all, exclude_any, exclude_all$/],
    ['no clauses', { ...rollouts, clauses: [] }, /clauses must be a non-empty list/],
    ['too many clauses', { ...rollouts, clauses: Array(FILTER_MAX_CLAUSES + 1).fill(clause) }, /at most 50 clauses/],
    ['a long name', { ...rollouts, name: 'n'.repeat(FILTER_NAME_MAX_LENGTH + 1) }, /^name must be at most 100/],
    ['an unknown object type', bad({ object_type: 'posts' }), /^clauses\[1\]\.object_type must be one of post, star, user_follow/],
    ['the 2012 operator contains', bad({ operator: 'contains' }), /^clauses\[1\]\.operator must be one of equals, matches, lt, le, gt, ge, one_of$/],
    ['a field without its leading /', bad({ field: 'data/text' }), /^clauses\[1\]\.field must be a JSON Pointer/],
    ['a bare ~ in the field', bad({ field: '/data/a~b' }), /^clauses\[1\]\.field/],
    ['a ~3 escape', bad({ field: '/data/~3' }), /^clauses\[1\]\.field/],
    ['no value', bad({ value: undefined }), /^clauses\[1\]\.value is required/],
    ['a text bound for lt', bad({ operator: 'lt', value: 'five' }), /^clauses\[1\]\.value must be an integer for the operator lt/],
    ['a fractional bound for ge', bad({ operator: 'ge', value: 1.5 }), /^clauses\[1\]\.value must be an integer for the operator ge/],
    ['a scalar for one_of', bad({ operator: 'one_of', value: '2' }), /^clauses\[1\]\.value must be a list \(or \$authorized_userids\) for the operator one_of/],
    ['an object in a one_of list', bad({ operator: 'one_of', value: ['1', { id: 2 }] }), /^clauses\[1\]\.value\[1\] must be a string or a number/],
    ['a list for equals', bad({ operator: 'equals', value: ['1'] }), /^clauses\[1\]\.value must be a single string or number for the operator equals/],
    ['an object for matches', bad({ value: { a: 1 } }), /^clauses\[1\]\.value must be a string or a number/],
    [
      '$authorized_userids with equals',
      bad({ operator: 'equals', value: '$authorized_userids' }),
      /\$authorized_userids can only be used with the operator one_of/,
    ],
  ]
  for (const [what, input, message] of cases) {
    await t.rejects(svc.domain.filters.create(alice, input), { code: 'invalid', message }, what)
  }
  t.same(await svc.domain.filters.list(alice), [], 'nothing was saved')
})

t.test('the values each operator takes are kept as given', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice] = await viewers(svc, 'alice')
  const base = { object_type: 'post', field: '/data/num_stars' }
  const filter = await svc.domain.filters.create(alice, {
    name: '  stars  ',
    match_policy: 'include_all',
    clauses: [
      { ...base, operator: 'gt', value: 2 },
      { ...base, operator: 'le', value: '-10' },
      { ...base, operator: 'one_of', value: ['1', 2] },
      { ...base, operator: 'equals', value: true },
      { ...base, field: '/data/entities/hashtags/~2/a~1b~0c', operator: 'matches', value: '' },
    ],
  })
  t.equal(filter.name, 'stars', 'the name is trimmed')
  t.same(
    filter.clauses.map((c) => c.value),
    [2, '-10', ['1', 2], 'true', ''],
  )
})
