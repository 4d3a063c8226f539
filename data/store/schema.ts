/**
 * Every table the domain stores, with the indexes its queries need. Index keys
 * are derived from a row; a key function may answer several keys (a post is
 * under each of its hashtags) or none. Composite keys are joined with `:`.
 */
import { createHash } from 'node:crypto'
import type { Key } from './port.js'
import type { Rows, TableName } from './tables.js'

export interface IndexDef<R> {
  /** Derives the key(s) of a row; `undefined`/`null` leaves the row out. */
  key: (row: R) => Key | readonly Key[] | null | undefined
  unique?: boolean
}

export type TableDef<R> = Record<string, IndexDef<R>>

export const pair = (a: Key, b: Key): string => `${a}:${b}`

export const schema: { [K in TableName]: TableDef<Rows[K]> } = {
  users: {
    // A deleted account frees its username for a new one.
    username: { key: (u) => (u.deleted_at === undefined ? u.username_key : undefined), unique: true },
    /** Suspended and deleted accounts, and those waiting for approval, whose posts nobody sees. */
    moderated: { key: (u) => (u.suspended_at === undefined && u.deleted_at === undefined && u.waiting_approval === undefined ? undefined : 1) },
    /** Remote accounts by their actor's id. */
    actor: { key: (u) => u.remote?.actor_id, unique: true },
    /** Local accounts by e-mail address, case-insensitively; a deleted account's frees it. */
    email: { key: (u) => (u.deleted_at === undefined && !u.remote ? u.email?.address.toLowerCase() : undefined), unique: true },
  },
  apps: {
    client_id: { key: (a) => a.client_id, unique: true },
    owner: { key: (a) => a.owner_id },
  },
  tokens: {
    hash: { key: (t) => t.hash, unique: true },
    app: { key: (t) => t.app_id },
    user: { key: (t) => t.user_id },
    app_user: { key: (t) => (t.user_id === undefined ? undefined : pair(t.app_id, t.user_id)) },
  },
  auth_codes: {
    hash: { key: (c) => c.hash, unique: true },
    user: { key: (c) => c.user_id },
  },
  delegate_tokens: {
    hash: { key: (d) => d.hash, unique: true },
    token: { key: (d) => d.token_id },
  },
  follows: {
    user: { key: (f) => f.user_id },
    target: { key: (f) => f.target_id },
    pair: { key: (f) => pair(f.user_id, f.target_id), unique: true },
  },
  mutes: {
    user: { key: (m) => m.user_id },
    target: { key: (m) => m.target_id },
    pair: { key: (m) => pair(m.user_id, m.target_id), unique: true },
  },
  blocks: {
    user: { key: (b) => b.user_id },
    target: { key: (b) => b.target_id },
    pair: { key: (b) => pair(b.user_id, b.target_id), unique: true },
  },
  posts: {
    user: { key: (p) => p.user_id },
    /** Posts that count in `counts.posts`: not deleted. */
    user_live: { key: (p) => (p.is_deleted ? undefined : p.user_id) },
    // A new post is inserted with thread_id 0 and put again with its real thread in the
    // same transaction; indexing that placeholder would set and delete Map key 0 for every
    // post, and V8 Maps keep deleted entries in the key's chain until they rehash, so
    // lookups of key 0 slowed down with every post created (65 µs each after 30k posts).
    thread: { key: (p) => (p.thread_id === 0 ? undefined : p.thread_id) },
    reply_to: { key: (p) => p.reply_to },
    /** Live replies of a post: its `num_replies`. */
    reply_to_live: { key: (p) => (p.is_deleted ? undefined : p.reply_to) },
    repost_of: { key: (p) => p.repost_of },
    /** Live reposts of a post: its `num_reposts` and reposters. */
    repost_live: { key: (p) => (p.is_deleted ? undefined : p.repost_of) },
    repost_pair: { key: (p) => (p.repost_of === undefined || p.is_deleted ? undefined : pair(p.user_id, p.repost_of)), unique: true },
    // Reposts carry their original's entities but are left out of mention and hashtag streams.
    mention: { key: (p) => (p.repost_of === undefined ? p.entities.mentions.map((m) => Number(m.id)) : undefined) },
    hashtag: { key: (p) => (p.repost_of === undefined ? p.entities.hashtags.map((h) => h.name) : undefined) },
    /** Annotation types of the posts explore and search list (live, original, not machine-only). */
    /** Posts from other servers by their Note's id. */
    object: { key: (p) => p.remote?.object_id, unique: true },
    annotation_type: { key: (p) => (p.is_deleted || p.machine_only || p.repost_of !== undefined ? undefined : [...new Set(p.annotations.map((a) => a.type))]) },
  },
  stars: {
    user: { key: (s) => s.user_id },
    post: { key: (s) => s.post_id },
    pair: { key: (s) => pair(s.user_id, s.post_id), unique: true },
  },
  explore_streams: {
    slug: { key: (e) => e.slug, unique: true },
  },
  channels: {
    owner: { key: (c) => c.owner_id },
    type: { key: (c) => c.type },
    pm_key: { key: (c) => c.pm_key, unique: true },
  },
  subscriptions: {
    channel: { key: (s) => s.channel_id },
    user: { key: (s) => s.user_id },
    pair: { key: (s) => pair(s.channel_id, s.user_id), unique: true },
  },
  broadcast_unsubscriptions: {
    channel: { key: (u) => u.channel_id },
    pair: { key: (u) => pair(u.channel_id, u.user_id), unique: true },
  },
  channel_mutes: {
    user: { key: (m) => m.user_id },
    channel: { key: (m) => m.channel_id },
    pair: { key: (m) => pair(m.channel_id, m.user_id), unique: true },
  },
  messages: {
    channel: { key: (m) => m.channel_id },
    /** Messages that count in `counts.messages`: not deleted. */
    channel_live: { key: (m) => (m.is_deleted ? undefined : m.channel_id) },
    user: { key: (m) => m.user_id },
    // Same placeholder as posts: a new message's thread_id is 0 until its own put.
    thread: { key: (m) => (m.thread_id === 0 ? undefined : m.thread_id) },
    reply_to: { key: (m) => m.reply_to },
  },
  markers: {
    user_name: { key: (m) => pair(m.user_id, m.name), unique: true },
  },
  user_streams: {
    connection_id: { key: (s) => s.connection_id, unique: true },
    token: { key: (s) => s.token_id },
  },
  stream_subscriptions: {
    stream: { key: (s) => s.stream_id },
    pair: { key: (s) => pair(s.stream_id, s.subscription_id), unique: true },
  },
  log_cursors: {
    name: { key: (c) => c.name, unique: true },
  },
  app_streams: {
    token: { key: (s) => s.token_id },
    token_key: { key: (s) => (s.key === undefined ? undefined : pair(s.token_id, s.key)), unique: true },
  },
  // Inline filters of app streams have no user and stay out of every user's list.
  filters: {
    user: { key: (f) => f.user_id },
  },
  files: {
    user: { key: (f) => f.user_id },
    /** Copies of other servers' media, oldest first, for the media cache's pruning. */
    remote: { key: (f) => (f.remote ? 1 : undefined) },
  },
  // Read by id windows only: no index keeps the emit (and the trim) cheap.
  event_log: {},
  federation_keys: {
    user: { key: (k) => k.user_id, unique: true },
  },
  federation_kv: {
    key: { key: (e) => e.key, unique: true },
    /** Entries that expire, for the sweep. */
    expiring: { key: (e) => (e.expires_at === undefined ? undefined : 1) },
  },
  // Read in id order (a scan): the queue stays short, as each message goes once handled.
  federation_queue: {},
  pending_follows: {
    pair: { key: (f) => pair(f.user_id, f.target_id), unique: true },
    activity: { key: (f) => f.activity_id, unique: true },
    target: { key: (f) => f.target_id },
  },
  federation_leases: {
    name: { key: (l) => l.name, unique: true },
  },
  federation_hosts: {
    host: { key: (h) => h.host, unique: true },
  },
  federation_domain_blocks: {
    domain: { key: (b) => b.domain, unique: true },
  },
  reports: {
    /** One report per reporter and post: reporting again answers the first. */
    reporter_target: { key: (r) => `${r.reporter_id}:${r.kind}:${r.target_id}`, unique: true },
    /** The queue the operator works through. */
    open: { key: (r) => (r.resolved_at === undefined ? 1 : undefined) },
  },
  invites: {
    code: { key: (i) => i.code_hash, unique: true },
  },
  two_factor: {
    user: { key: (f) => f.user_id, unique: true },
  },
  app_passwords: {
    user: { key: (p) => p.user_id },
    hash: { key: (p) => p.hash, unique: true },
  },
  account_links: {
    code: { key: (l) => l.code_hash, unique: true },
    user: { key: (l) => l.user_id },
  },
}

export const tableNames = Object.keys(schema) as TableName[]

/**
 * Names the tables, their indexes and how each derives its keys: an index
 * file written under another schema (an older svc) would answer wrong ids,
 * so it is used only under the same fingerprint.
 */
export const schemaFingerprint: string = createHash('sha256')
  .update(
    JSON.stringify(
      Object.entries(schema).map(([table, defs]) => [
        table,
        Object.entries(defs as TableDef<unknown>).map(([name, def]) => [name, def.unique === true, def.key.toString()]),
      ]),
    ),
  )
  .digest('hex')
