/**
 * Path and query validation that remembers valid inputs: each caller gets
 * the value joi would give, its own copy, and bad input its own error, the
 * hundredth time as the first.
 */
import Joi from 'joi'
import t from 'tap'
import { rememberingValidator } from '../../server/validation.js'
import { makeInstance } from '../fixtures/instance.js'

const query = Joi.object({
  count: Joi.number().integer().default(20),
  ids: Joi.array().items(Joi.string()).single(),
  since: Joi.date(),
})

t.test('a valid input answers what joi answers, a fresh copy each time', async (t) => {
  const validate = rememberingValidator(query)
  const first = (await validate({ count: '5', ids: ['1', '2'], since: '2026-01-01T00:00:00Z' })) as { count: number; ids: string[]; since: Date }
  t.same(first, { count: 5, ids: ['1', '2'], since: new Date('2026-01-01T00:00:00Z') })
  first.count = 99
  first.ids.push('3')
  first.since.setFullYear(1999)
  const again = await validate({ count: '5', ids: ['1', '2'], since: '2026-01-01T00:00:00Z' })
  t.same(again, { count: 5, ids: ['1', '2'], since: new Date('2026-01-01T00:00:00Z') }, 'what a caller did to its copy is not what the next one gets')
  t.not(again, first)
  t.same(await validate({}), { count: 20 }, 'defaults')
  t.same(await validate({ _: '1732550000', count: '2' }), { _: '1732550000', count: 2 }, 'unknown keys pass, as the server prefers')
})

t.test('an invalid input is refused every time, each time with an error of its own', async (t) => {
  const validate = rememberingValidator(query)
  const errors: unknown[] = []
  for (let i = 0; i < 2; i++) errors.push(await validate({ count: 'many' }).catch((err: unknown) => err))
  for (const err of errors) t.match(err, { name: 'ValidationError', message: '"count" must be a number' })
  t.not(errors[0], errors[1])
})

t.test('past the inputs it remembers, it still answers each one right', async (t) => {
  const validate = rememberingValidator(query)
  const wrong: number[] = []
  for (let i = 0; i < 2_500; i++) if (((await validate({ count: String(i) })) as { count: number }).count !== i) wrong.push(i)
  t.same(wrong, [], 'every count read back as given')
  t.same(await validate({ count: '7' }), { count: 7 })
})

t.test('through a route: the same call twice, good or bad, answers the same', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  for (const text of ['one', 'two', 'three']) await svc.call('POST', '/posts', { token: alice.token, payload: { text } })
  for (let i = 0; i < 2; i++) {
    const good = await svc.call('GET', '/posts/stream/unified?count=2', { token: alice.token })
    t.equal(good.status, 200)
    t.same(
      good.body.data.map((p: { text: string }) => p.text),
      ['three', 'two'],
    )
    const bad = await svc.call('GET', '/posts/stream/unified?count=two', { token: alice.token })
    t.equal(bad.status, 400)
    t.equal(bad.body.meta.error_message, 'Bad Request: count must be a number')
  }
})
