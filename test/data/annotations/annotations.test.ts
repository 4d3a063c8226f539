import t from 'tap'
import type { UpdateChannelInput } from '../../../data/index.js'
import { makeDomainInstance, type DomainInstance, type Person } from '../../fixtures/instance.js'

/** Alice puts the same annotations on her profile, a post, a channel and a message: each door answers the same. */
async function everywhere(svc: DomainInstance, alice: Person, annotations: unknown[]): Promise<unknown[]> {
  const me = await svc.viewerOf(alice)
  const chat = await svc.domain.channels.core.create(me, { type: 'com.example.chat' })
  const attempts = [
    () => svc.domain.users.profiles.update(me, { annotations }),
    () => svc.domain.posts.core.create(me, { text: 'hi', annotations }),
    () => svc.domain.channels.core.update(me, chat.id, { annotations: annotations as UpdateChannelInput['annotations'] }),
    () => svc.domain.channels.messages.create(me, chat.id, { text: 'hi', annotations }),
  ]
  const answers: unknown[] = []
  for (const attempt of attempts) {
    try {
      answers.push((await attempt()).annotations)
    } catch (err) {
      answers.push({ code: (err as { code?: string }).code, message: (err as Error).message })
    }
  }
  return answers
}

t.test('users, posts, channels and messages refuse the same bad annotation with the same words', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const alice = await svc.person('alice')
  const cases: [string, unknown[], RegExp][] = [
    ['a type that is not a reversed domain', [{ type: 'nodots', value: {} }], /annotation 0 type must be a reversed-domain name/],
    ['a type with an empty segment', [{ type: 'com..note', value: {} }], /reversed-domain/],
    ['a value that is not an object', [{ type: 'com.example.note', value: [1] }], /com\.example\.note needs a value object/],
    [
      'an unresolved svc.core replacement value, however deep',
      [{ type: 'com.example.cover', value: { photo: [{ '+svc.core.file': { file_id: '1' } }] } }],
      /replacement value \+svc\.core\.file/,
    ],
    ['more than 8192 bytes', [{ type: 'com.example.big', value: { s: 'x'.repeat(8200) } }], /larger than 8192 bytes/],
  ]
  for (const [what, annotations, message] of cases) {
    const answers = await everywhere(svc, alice, annotations)
    t.equal(answers.length, 4)
    for (const answer of answers) t.match(answer, { code: 'invalid', message }, what)
  }
})

t.test('a good annotation is stored as given wherever alice puts it', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const alice = await svc.person('alice')
  const note = { type: 'com.example-app.note_v2', value: { text: 'hello', tags: ['a'] } }
  t.same(await everywhere(svc, alice, [note]), [[note], [note], [note], [note]])
})

t.test('a type with _ in its first segment and a + key outside svc.core are the client own data', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const alice = await svc.person('alice')
  // The original API took `_` in any segment, and a `+` key outside svc.core is the client's own data.
  const own = { type: 'my_app.note', value: { '+1': 'plus one', '+com.example.file': 'kept' } }
  t.same(await everywhere(svc, alice, [own]), [[own], [own], [own], [own]])
})

t.test('alice changes her profile and her channel type by type, by the same rule', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const alice = await svc.person('alice')
  const me = await svc.viewerOf(alice)
  const chat = await svc.domain.channels.core.create(me, { type: 'com.example.chat' })
  const topic = { type: 'com.example.topic', value: { t: 1 } }
  const color = { type: 'com.example.color', value: { c: 'red' } }
  const newTopic = { type: 'com.example.topic', value: { t: 2 } }
  const steps: unknown[][] = [[topic, color], [newTopic], [{ type: 'com.example.color' }]]
  const profile: unknown[] = []
  const channel: unknown[] = []
  for (const annotations of steps) {
    profile.push((await svc.domain.users.profiles.update(me, { annotations })).annotations)
    channel.push((await svc.domain.channels.core.update(me, chat.id, { annotations: annotations as UpdateChannelInput['annotations'] })).annotations)
  }
  const expected = [[topic, color], [newTopic, color], [newTopic]]
  t.same(profile, expected, 'replaced in place, removed by a type without value')
  t.same(channel, expected, 'the channel merges the same way')
})

t.test('posts and messages may repeat a type; profiles and channels keep one per type', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const alice = await svc.person('alice')
  const first = { type: 'com.example.note', value: { n: 1 } }
  const second = { type: 'com.example.note', value: { n: 2 } }
  t.same(await everywhere(svc, alice, [first, second]), [[second], [first, second], [second], [first, second]])
})
