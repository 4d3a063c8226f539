/**
 * A fake instance for the console's tests: it answers admin operations the
 * way a server does (and keeps what they change), pushes the pictures of
 * watch topics when a test changes them, and can go away and come back as
 * a restarting server does.
 */
import {
  AdminSocketUnreachable,
  type AdminUser,
  type AdminWatchListener,
  type AppFacts,
  type AppStreamsPicture,
  type EventTail,
  type FederationPicture,
  type FiltersPicture,
  type ReportFacts,
  type UserStreamsPicture,
} from '../../data/index.js'
import type { AdminClient } from '../../admin/admin-client.js'

type Args = Record<string, unknown>

interface Stream {
  id: string
  slug: string
  title: string
  rule: Args
  pinned: string[]
}

/** A client id as `svc app create` makes them: 32 characters. */
export const FELIX_CLIENT_ID = 'Xq3v9TzLr0bW4mPa7sKd2HnE6yUc1JfG'

/** An instance where alice and bob each hold a token, with two explore streams and posts 7 and 42; alice has a stream connected. */
export function fakeInstance() {
  const calls: { op: string; args: Args }[] = []
  let tokens = [
    {
      id: '1',
      kind: 'user',
      app: { client_id: 'c-patter', name: 'Patter' },
      user: { id: '1', username: 'alice' },
      scopes: ['basic', 'stream'],
      created_at: '2025-03-01T09:30:12.000Z',
    },
    {
      id: '2',
      kind: 'user',
      app: { client_id: 'c-felix', name: 'Felix' },
      user: { id: '2', username: 'bob' },
      scopes: ['basic', 'write_post'],
      created_at: '2025-03-02T10:00:00.000Z',
    },
  ]
  let streams: Stream[] = [
    { id: '1', slug: 'photos', title: 'Photos', rule: { has_photo: true }, pinned: ['7'] },
    { id: '2', slug: 'trending', title: 'Trending', rule: { min_stars: 3, star_window_hours: 24 }, pinned: [] },
  ]
  let users: AdminUser[] = [
    { id: '1', username: 'alice', name: 'Alice Liddell', type: 'human', created_at: '2025-02-01T08:00:00.000Z' },
    { id: '2', username: 'bob', name: 'Bob', type: 'human', created_at: '2025-02-02T08:00:00.000Z' },
    { id: '3', username: 'robo', name: 'Robo', type: 'bot', created_at: '2025-02-03T08:00:00.000Z', suspended_at: '2025-03-05T12:00:00.000Z' },
    {
      id: '4',
      username: 'carol',
      name: 'Carol',
      type: 'human',
      created_at: '2025-03-07T08:00:00.000Z',
      waiting_approval: { since: '2025-03-07T08:00:00.000Z', note: 'I knit with alice' },
    },
  ]
  let apps: AppFacts[] = [
    { id: '1', client_id: 'c-patter', name: 'Patter', link: '', redirect_uris: ['http://patter.example/cb'], created_at: '2025-01-01T00:00:00.000Z' },
    { id: '2', client_id: FELIX_CLIENT_ID, name: 'Felix', link: '', redirect_uris: [], created_at: '2025-01-02T00:00:00.000Z' },
  ]
  let reports: ReportFacts[] = [
    {
      id: 1,
      kind: 'post',
      post_id: 42,
      user_id: null,
      message_id: null,
      channel_id: null,
      reporter: 'bob',
      author: 'robo',
      reason: 'spam',
      content: { text: 'cheap watches', created_at: '2025-03-04T10:00:00.000Z' },
      created_at: '2025-03-04T11:00:00.000Z',
      resolved_at: null,
      resolution: null,
    },
    {
      id: 2,
      kind: 'post',
      post_id: 7,
      user_id: null,
      message_id: null,
      channel_id: null,
      reporter: 'alice',
      author: 'bob',
      reason: null,
      content: { text: 'you again', created_at: '2025-03-04T12:00:00.000Z' },
      created_at: '2025-03-04T12:30:00.000Z',
      resolved_at: null,
      resolution: null,
    },
    {
      id: 3,
      kind: 'user',
      post_id: null,
      user_id: 3,
      message_id: null,
      channel_id: null,
      reporter: 'alice',
      author: 'robo',
      reason: 'bot for hire',
      content: { text: 'I post for money', name: 'Robo', created_at: '2025-02-03T08:00:00.000Z' },
      created_at: '2025-03-04T13:00:00.000Z',
      resolved_at: null,
      resolution: null,
    },
    {
      id: 4,
      kind: 'message',
      post_id: null,
      user_id: null,
      message_id: 9,
      channel_id: 2,
      reporter: 'alice',
      author: 'bob',
      reason: null,
      content: { text: 'pay me now', created_at: '2025-03-04T14:00:00.000Z' },
      created_at: '2025-03-04T14:30:00.000Z',
      resolved_at: null,
      resolution: null,
    },
  ]
  const user = (args: Args): AdminUser => {
    const found = users.find((u) => u.username === args.username)
    if (!found) throw new Error(`no user ${String(args.username)}`)
    return found
  }
  const posts = new Set(['7', '42'])
  const stream = (args: Args): Stream => {
    const found = streams.find((s) => s.slug === args.slug)
    if (!found) throw new Error(`explore stream ${String(args.slug)} not found`)
    return found
  }
  const operations: Record<string, (args: Args) => unknown> = {
    'token.list': () => tokens,
    'token.revoke': (args) => {
      const token = tokens.find((x) => x.id === args.token)
      if (!token) throw new Error('no such token')
      tokens = tokens.filter((x) => x !== token)
      return token
    },
    'explore.list': () => streams,
    'explore.pin': (args) => {
      if (!posts.has(String(args.post_id))) throw new Error(`post ${String(args.post_id)} not found`)
      stream(args).pinned.push(String(args.post_id))
      return stream(args)
    },
    'explore.unpin': (args) => {
      stream(args).pinned = stream(args).pinned.filter((id) => id !== String(args.post_id))
      return stream(args)
    },
    'explore.delete': (args) => {
      const gone = stream(args)
      streams = streams.filter((s) => s !== gone)
      return gone
    },
    'user.list': () => users,
    'user.suspend': (args) => {
      reports = reports.filter((r) => !(r.kind === 'user' && r.author === args.username))
      return Object.assign(user(args), { suspended_at: '2025-03-06T09:00:00.000Z' })
    },
    'user.unsuspend': (args) => {
      const found = user(args)
      delete found.suspended_at
      return found
    },
    'user.delete': (args) => {
      const gone = user(args)
      users = users.filter((u) => u !== gone)
      return { ...gone, deleted_at: '2025-03-06T09:00:00.000Z' }
    },
    'user.approve': (args) => {
      const found = user(args)
      if (!found.waiting_approval) throw new Error(`@${found.username} is not waiting for approval`)
      delete found.waiting_approval
      return found
    },
    'user.reject': (args) => {
      const gone = user(args)
      users = users.filter((u) => u !== gone)
      return gone
    },
    'user.reset-password': (args) => {
      if (typeof args.password !== 'string' || args.password.length < 8) throw new Error('password must be at least 8 characters')
      return user(args)
    },
    'report.list': () => reports,
    'report.resolve': (args) => {
      const found = reports.find((r) => r.id === args.id)
      if (!found) throw new Error(`report ${String(args.id)} not found`)
      reports = reports.filter((r) => r !== found)
      return { ...found, resolved_at: '2025-03-06T09:00:00.000Z', resolution: (args.note as string | undefined) ?? null }
    },
    'message.delete': (args) => {
      const of = reports.find((r) => r.message_id === args.id)
      reports = reports.filter((r) => r.message_id !== args.id)
      return {
        id: args.id,
        channel_id: of?.channel_id ?? 1,
        author: of?.author ?? 'alice',
        created_at: '',
        removed: { reason: args.reason, at: '' },
        already_deleted: false,
      }
    },
    'post.delete': (args) => {
      const of = reports.filter((r) => r.post_id === args.id)
      reports = reports.filter((r) => r.post_id !== args.id)
      return {
        id: args.id,
        author: of[0]?.author ?? 'alice',
        text: of[0]?.content.text ?? '',
        created_at: '',
        removed: { reason: args.reason, at: '' },
        already_deleted: false,
        reports_resolved: of.length,
      }
    },
    'app.list': () => apps,
    'app.delete': (args) => {
      const gone = apps.find((a) => a.client_id === args.client_id)
      if (!gone) throw new Error(`no app with client_id ${String(args.client_id)}`)
      apps = apps.filter((a) => a !== gone)
      return gone
    },
  }
  const pictures: Record<string, unknown> = {
    user_streams: userStreams(),
    events: eventTail(),
    app_streams: appStreams(),
    filters: filters(),
    federation: federation(),
  }
  const watchers = new Set<{ topic: string; listener: AdminWatchListener }>()
  let down = false
  const lost = () => new AdminSocketUnreachable('/srv/svc-data/admin.sock', null)
  const client: AdminClient = {
    async call(op, args = {}) {
      calls.push({ op, args })
      if (down) throw lost()
      const run = operations[op]
      if (!run) throw new Error(`unknown admin operation ${op}`)
      return structuredClone(run(args))
    },
    watch(topic, listener) {
      calls.push({ op: 'watch', args: { topic } })
      const watcher = { topic, listener }
      watchers.add(watcher)
      setImmediate(() => {
        if (!watchers.has(watcher)) return
        if (down) listener.error(lost())
        else listener.picture(structuredClone(pictures[topic]))
      })
      return () => watchers.delete(watcher)
    },
  }
  const tell = (topic: string) => {
    for (const w of watchers) if (w.topic === topic && !down) w.listener.picture(structuredClone(pictures[topic]))
  }
  return {
    client,
    calls,
    changes: () => calls.filter((c) => !c.op.endsWith('.list') && c.op !== 'watch'),
    tokens: {
      /** A token made elsewhere (the CLI) that lists first. */
      addFirst: (token: (typeof tokens)[number]) => void (tokens = [token, ...tokens]),
    },
    /** The server pushes a new picture of `topic`. */
    push<T>(topic: 'user_streams' | 'events' | 'app_streams' | 'filters' | 'federation', change: (picture: T) => T) {
      pictures[topic] = change(pictures[topic] as T)
      tell(topic)
    },
    watching: (topic: string) => [...watchers].filter((w) => w.topic === topic).length,
    /** The server stops: calls fail, watches hear of it. */
    stop() {
      down = true
      for (const w of watchers) w.listener.error(lost())
    },
    /** A server answers again: calls work, and the watches (re-subscribed by the real client) get a picture. */
    restart() {
      down = false
      for (const topic of Object.keys(pictures)) tell(topic)
    },
  }
}

const userStreams = (): UserStreamsPicture => ({
  head: 120,
  backlog_limit: 1000,
  streams: [
    {
      connection_id: 'c0nnAlice0000000000000001',
      user: { id: '1', username: 'alice' },
      app: 'Patter',
      token_id: '1',
      connected: true,
      live: true,
      since: '2025-03-03T10:20:31.000Z',
      created_at: '2025-03-03T10:20:31.000Z',
      subscriptions: [
        { subscription_id: 'home', endpoint: 'posts/stream/unified' },
        { subscription_id: 'thread-7', endpoint: 'posts/replies', target: '7' },
      ],
      backlog: 3,
      cursor: 117,
    },
    {
      connection_id: 'c0nnBob000000000000000002',
      user: { id: '2', username: 'bob' },
      app: 'Felix',
      token_id: '2',
      connected: false,
      live: false,
      since: '2025-03-03T10:25:01.000Z',
      created_at: '2025-03-03T09:00:00.000Z',
      subscriptions: [],
      backlog: 0,
      cursor: 100,
    },
  ],
})

const eventTail = (): EventTail => ({
  head: 3,
  events: [
    { seq: 3, name: 'follow.added', at: '2025-03-03T10:00:03.000Z', summary: '@bob follows @alice' },
    { seq: 2, name: 'post.created', at: '2025-03-03T10:00:02.000Z', summary: 'post 7 by @alice' },
    { seq: 1, name: 'user.created', at: '2025-03-03T10:00:01.000Z', summary: '@alice' },
  ],
})

const helloFilter = { id: '4', match_policy: 'include_any', clauses: ['post /data/text matches "hello"'] }

const appStreams = (): AppStreamsPicture => ({
  streams: [
    {
      id: '1',
      app: { id: '1', name: 'Patter', client_id: 'c-patter' },
      key: 'firehose',
      object_types: ['post', 'star'],
      connected: true,
      queue_depth: 12,
      queue_limit: 100000,
      filter: helloFilter,
    },
    {
      id: '2',
      app: { id: '2', name: 'Felix', client_id: FELIX_CLIENT_ID },
      object_types: ['user'],
      connected: false,
      queue_depth: 0,
      queue_limit: 100000,
      filter: null,
    },
  ],
})

const filters = (): FiltersPicture => ({
  filters: [
    {
      id: '3',
      owner: '@alice',
      name: 'no bots',
      match_policy: 'exclude_any',
      clauses: ['post /data/user/type equals "bot"', 'post /data/user/id one_of ["3", "9"]'],
      streams: 0,
    },
    { ...helloFilter, owner: 'app Patter', streams: 1 },
  ],
})

const federation = (): FederationPicture => ({
  status: 'federating as svc.example; outbox at event 120 of 120',
  hosts: [
    { host: 'mastodon.example', accounts: 12, block: '-', pending: 0, failing: 0, given_up: 0, delivered: 340, last_error: null },
    {
      host: 'slow.example:8443',
      accounts: 2,
      block: '-',
      pending: 3,
      failing: 2,
      given_up: 1,
      delivered: 5,
      last_error: '2026-11-27T10:00:00.000Z (try 4) connect ECONNREFUSED 203.0.113.9:8443',
    },
    { host: 'spam.example', accounts: 0, block: 'suspended, no media', pending: 0, failing: 0, given_up: 0, delivered: 0, last_error: null },
  ],
})
