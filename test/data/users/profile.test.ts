import t from 'tap'
import { rmSync } from 'node:fs'
import { openDomain, type DomainEvent, type ProfileInput, type UserRow } from '../../../data/index.js'
import { makeDomainInstance, type DomainInstance, type Person } from '../../fixtures/instance.js'
import { scratchDir } from '../../fixtures/scratch.js'

const edit = async (svc: DomainInstance, p: Person, input: ProfileInput) => svc.domain.users.profiles.update(await svc.viewerOf(p), input)
const full = { name: 'Alice A.', locale: 'de_DE', timezone: 'Europe/Berlin', description: { text: 'hello' } }

t.test('a replacement needs name, locale, timezone and description.text', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.viewerOf(await svc.person('alice'))
  const { timezone, ...noTimezone } = full
  t.equal(timezone, 'Europe/Berlin')
  await t.rejects(svc.domain.users.profiles.replace(alice, noTimezone), { code: 'invalid', message: /timezone/ })
  await t.rejects(svc.domain.users.profiles.replace(alice, { ...full, description: {} }), { code: 'invalid', message: /description\.text/ })
  const user = await svc.domain.users.profiles.replace(alice, full)
  t.same([user.name, user.locale, user.timezone, user.description.text], ['Alice A.', 'de_DE', 'Europe/Berlin', 'hello'])
})

t.test('an update changes only the keys it names', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  await svc.domain.users.profiles.replace(await svc.viewerOf(alice), full)
  const user = await edit(svc, alice, { timezone: 'America/New_York' })
  t.same([user.name, user.locale, user.timezone, user.description.text], ['Alice A.', 'de_DE', 'America/New_York', 'hello'])
  t.equal(user.username, 'alice', 'the username is not a profile key')
})

t.test('a name is at most 50 characters and may be empty', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  await t.rejects(edit(svc, alice, { name: 'x'.repeat(51) }), { code: 'invalid', message: /50/ })
  t.equal((await edit(svc, alice, { name: '😊'.repeat(50) })).name, '😊'.repeat(50), 'counted in code points')
  t.equal((await edit(svc, alice, { name: '' })).name, '')
})

t.test('locale and timezone must be real ones', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  for (const locale of ['', 'english please', 'x', 'en_US_!!']) await t.rejects(edit(svc, alice, { locale }), { code: 'invalid', message: /locale/ })
  for (const timezone of ['', 'Mars/Olympus', '+01:00', 'Europe/Berlin; drop'])
    await t.rejects(edit(svc, alice, { timezone }), { code: 'invalid', message: /timezone/ })
  t.equal((await edit(svc, alice, { locale: 'pt_BR' })).locale, 'pt_BR')
  t.equal((await edit(svc, alice, { timezone: 'america/new_york' })).timezone, 'America/New_York', 'a zone typed in another case is stored canonically')
  t.equal((await edit(svc, alice, { timezone: 'UTC' })).timezone, 'UTC')
})

t.test('the description goes through the text pipeline: mentions of real users, hashtags, links', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const user = await edit(svc, alice, { description: { text: 'Ask @bob or @nobody about #Coffee at example.com' } })
  const { mentions, hashtags, links } = user.description.entities
  t.same(mentions, [{ pos: 4, len: 4, name: 'bob', id: String(bob.user.id) }], '@nobody stays plain text')
  t.same(hashtags, [{ pos: 26, len: 7, name: 'coffee' }])
  t.same(links, [{ pos: 37, len: 11, text: 'example.com', url: 'http://example.com' }])
  await t.rejects(edit(svc, alice, { description: { text: 'x'.repeat(257) } }), { code: 'invalid', message: /description text is longer than 256/ })
  t.equal((await edit(svc, alice, { description: { text: '' } })).description.text, '', 'an empty description is fine')
})

t.test('user-given links are honoured, amended once, and kept when the description comes back unchanged', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const given = await edit(svc, alice, { description: { text: 'my site', entities: { links: [{ pos: 3, len: 4, url: 'https://alice.example/' }] } } })
  t.equal(given.description.text, 'my site [alice.example]')
  t.same(given.description.entities.links, [{ pos: 3, len: 4, text: 'site', url: 'https://alice.example/', amended_len: 20 }])
  const echoed = await edit(svc, alice, { description: { text: given.description.text, entities: given.description.entities as never } })
  t.same(echoed.description, given.description, 'sending back what was stored changes nothing')
  const markdown = await edit(svc, alice, { description: { text: 'see [blog](https://blog.example)', entities: { parse_markdown_links: true } } })
  t.equal(markdown.description.text, 'see blog [blog.example]')
  await t.rejects(edit(svc, alice, { description: { text: 'short', entities: { links: [{ pos: 3, len: 9, url: 'https://x.example' }] } } }), {
    code: 'invalid',
  })
})

t.test('annotations are unique per type: listed types are added or replaced, a type alone is removed', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const blog = { type: 'svc.core.directory.blog', value: { url: 'https://alice.example' } }
  const note = { type: 'com.example.note', value: { n: 1 } }
  t.same((await edit(svc, alice, { annotations: [blog, note] })).annotations, [blog, note])
  const newer = { type: 'com.example.note', value: { n: 2 } }
  const color = { type: 'com.example.color', value: { c: 'red' } }
  t.same((await edit(svc, alice, { annotations: [newer, color] })).annotations, [blog, newer, color], 'replaced in place, new ones appended')
  t.same((await edit(svc, alice, { annotations: [{ type: 'svc.core.directory.blog' }] })).annotations, [newer, color], 'a type without value removes it')
  t.same((await edit(svc, alice, { name: 'Al' })).annotations, [newer, color], 'an update without annotations keeps them')
  t.same((await edit(svc, alice, { annotations: [] })).annotations, [newer, color], 'an empty list changes nothing')
})

t.test('bad annotations are refused and change nothing', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const note = { type: 'com.example.note', value: { n: 1 } }
  await edit(svc, alice, { annotations: [note] })
  await t.rejects(edit(svc, alice, { annotations: [{ type: 'nodots', value: {} }] }), { code: 'invalid', message: /reversed-domain/ })
  await t.rejects(edit(svc, alice, { annotations: [{ type: 'no dots' }] }), { code: 'invalid', message: /reversed-domain/ }, 'a removal needs a valid type too')
  await t.rejects(edit(svc, alice, { annotations: [{ type: 'svc.core.directory.blog', value: { url: 'ftp://x' } }] }), { code: 'invalid', message: /url/ })
  await t.rejects(edit(svc, alice, { annotations: [{ type: 'svc.core.madeup', value: {} }] }), { code: 'invalid' })
  await t.rejects(edit(svc, alice, { annotations: [{ type: 'com.example.big', value: { s: 'x'.repeat(8200) } }] }), { code: 'invalid', message: /8192/ })
  await t.rejects(edit(svc, alice, { name: 'Changed', annotations: 'nope' }), { code: 'invalid' })
  const stored = await svc.domain.users.accounts.get(alice.user.id)
  t.same([stored?.name, stored?.annotations], ['Alice', [note]])
})

t.test('an update emits user.updated with the new row', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const seen: UserRow[] = []
  svc.domain.events.on('user.updated', (e: DomainEvent<'user.updated'>) => seen.push(e.payload.user))
  const updated = await edit(svc, alice, { name: 'Alice Liddell' })
  t.same(seen, [updated])
  t.equal(seen[0].name, 'Alice Liddell')
  t.same(await svc.domain.users.accounts.get(alice.user.id), updated, 'the event carries the stored row')
  await t.rejects(edit(svc, alice, { name: 'x'.repeat(51) }))
  t.equal(seen.length, 1, 'a refused update emits nothing')
})

t.test('a profile change survives reopening the data dir', async (t) => {
  const dir = scratchDir('svc-profile-')
  const first = await openDomain(dir)
  const alice = await first.users.accounts.create({ username: 'alice', password: 'correct horse' })
  await first.users.profiles.replace(
    { user: alice },
    { ...full, description: { text: 'I like #tea' }, annotations: [{ type: 'com.example.note', value: { n: 1 } }] },
  )
  await first.close()
  const again = await openDomain(dir)
  t.teardown(async () => {
    await again.close()
    rmSync(dir, { recursive: true, force: true })
  })
  const stored = await again.users.accounts.get(alice.id)
  t.same([stored?.name, stored?.locale, stored?.timezone, stored?.description.text], ['Alice A.', 'de_DE', 'Europe/Berlin', 'I like #tea'])
  t.same(stored?.description.entities.hashtags, [{ pos: 7, len: 4, name: 'tea' }])
  t.same(stored?.annotations, [{ type: 'com.example.note', value: { n: 1 } }])
})

t.test('only a user can edit a profile', async (t) => {
  const svc = await makeDomainInstance(t)
  await t.rejects(svc.domain.users.profiles.update({}, { name: 'x' }), { code: 'forbidden' })
})
