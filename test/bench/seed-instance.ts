/**
 * Seeds a data dir for the benchmark through the store's own door (batched
 * transacts, then a snapshot): users with a skewed follow graph (a few
 * accounts followed by many, most by few), posts whose authors are skewed the
 * same way, with hashtags, mentions, replies and stars, and user tokens for
 * the load generator.
 */
import { isoNow, type Entities, type PostRow, type Tx } from '../../data/index.js'
import { openWithStore } from '../fixtures/open-store.js'

export interface SeedOptions {
  users: number
  posts: number
  /** How many of the users get a token (one per connection is plenty). */
  tokens: number
  /** Average follows per user. */
  follows: number
  stars: number
}

export interface SeededInstance {
  /** Tokens of the most-followed-by users, with their user ids. */
  people: { userId: number; token: string }[]
  postIds: { first: number; last: number }
  userIds: { first: number; last: number }
  seconds: number
}

const BATCH = 10_000
const WORDS = 'the a coffee morning city train music code garden rain night book friend walk river light window market bread paper storm quiet bright'.split(
  ' ',
)
const TAGS = ['coffee', 'music', 'photo', 'news', 'rust', 'typescript', 'art', 'food', 'travel', 'svc']

/** A deterministic generator, so runs are comparable. */
export function random(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let x = Math.imul(s ^ (s >>> 15), 1 | s)
    x ^= x + Math.imul(x ^ (x >>> 7), 61 | x)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

/** A user index skewed towards low indexes (a Zipf-like popularity, exponent ~1). */
const skewed = (rand: () => number, n: number): number => Math.min(n - 1, Math.floor(Math.exp(rand() * Math.log(n + 1)) - 1))

async function inBatches(
  count: number,
  write: (tx: Tx, from: number, to: number) => Promise<void> | void,
  commit: (work: (tx: Tx) => Promise<void>) => Promise<void>,
): Promise<void> {
  for (let from = 0; from < count; from += BATCH) {
    const to = Math.min(count, from + BATCH)
    await commit(async (tx) => write(tx, from, to))
  }
}

export async function seedInstance(dataDir: string, o: SeedOptions): Promise<SeededInstance> {
  const started = performance.now()
  // The seeder writes rows in bulk, past the services' one-at-a-time rules.
  const { domain, store } = await openWithStore(dataDir, { config: { rate_limits: { enabled: false } as never } })
  const commit = (work: (tx: Tx) => Promise<void>) => store.transact(work)
  const rand = random(42)
  const now = Date.now()
  const emptyEntities: Entities = { mentions: [], hashtags: [], links: [] }
  const { app } = await domain.auth.apps.create({ name: 'Bench Client' })

  const firstUser = (await store.read.users.size()) + 1
  await inBatches(
    o.users,
    (tx, from, to) => {
      for (let i = from; i < to; i++) {
        const username = `user${i}`
        const row = tx.users.insert({
          username,
          username_key: username,
          name: `User ${i}`,
          type: 'human',
          locale: 'en_US',
          timezone: 'UTC',
          description: { text: '', entities: emptyEntities },
          annotations: [],
          created_at: isoNow(new Date(now - 400 * 86_400_000)),
        })
        if (row.id !== firstUser + i) throw new Error('seeding expects a fresh store')
      }
    },
    commit,
  )
  const userId = (index: number) => firstUser + index

  // Each user follows a log-normal number of accounts, picked by popularity.
  await inBatches(
    o.users,
    (tx, from, to) => {
      for (let i = from; i < to; i++) {
        const k = Math.min(o.users - 1, Math.round(o.follows * Math.exp((rand() - 0.5) * 2) * 0.85))
        const targets = new Set<number>()
        for (let j = 0; j < k * 2 && targets.size < k; j++) {
          const t = skewed(rand, o.users)
          if (t !== i) targets.add(t)
        }
        for (const t of targets) tx.follows.insert({ user_id: userId(i), target_id: userId(t), created_at: isoNow(new Date(now - 300 * 86_400_000)) })
      }
    },
    commit,
  )

  const firstPost = (await store.read.posts.size()) + 1
  const span = 365 * 86_400_000
  const threadOf: number[] = []
  await inBatches(
    o.posts,
    (tx, from, to) => {
      for (let i = from; i < to; i++) {
        const id = firstPost + i
        const author = userId(skewed(rand, o.users))
        const words = Array.from({ length: 6 + Math.floor(rand() * 14) }, () => WORDS[Math.floor(rand() * WORDS.length)])
        let text = words.join(' ')
        const entities: Entities = { mentions: [], hashtags: [], links: [] }
        if (rand() < 0.1) {
          const target = userId(skewed(rand, o.users))
          const name = `user${target - firstUser}`
          text = `@${name} ${text}`
          entities.mentions.push({ pos: 0, len: name.length + 1, name, id: String(target), is_leading: true })
        }
        if (rand() < 0.2) {
          const tag = TAGS[Math.floor(rand() * TAGS.length)]
          entities.hashtags.push({ pos: [...text].length + 1, len: tag.length + 1, name: tag })
          text = `${text} #${tag}`
        }
        const parent = i > 0 && rand() < 0.1 ? firstPost + i - 1 - Math.floor(rand() * Math.min(i, 500)) : undefined
        const thread_id = parent === undefined ? id : threadOf[parent - firstPost]
        threadOf.push(thread_id)
        const row = tx.posts.insert({
          user_id: author,
          text,
          entities,
          annotations: [],
          machine_only: false,
          ...(parent === undefined ? {} : { reply_to: parent }),
          thread_id,
          app_id: app.id,
          created_at: isoNow(new Date(now - span + Math.floor((span * i) / o.posts))),
        } satisfies Omit<PostRow, 'id'>)
        if (row.id !== id) throw new Error('seeding expects a fresh store')
      }
    },
    commit,
  )

  const starred = new Set<string>()
  await inBatches(
    o.stars,
    (tx, from, to) => {
      for (let i = from; i < to; i++) {
        const user = userId(Math.floor(rand() * o.users))
        const post = firstPost + o.posts - 1 - Math.floor(Math.pow(rand(), 3) * o.posts)
        if (starred.has(`${user}:${post}`)) continue
        starred.add(`${user}:${post}`)
        tx.stars.insert({ user_id: user, post_id: post, created_at: isoNow(new Date(now - Math.floor(rand() * 86_400_000))) })
      }
    },
    commit,
  )

  // Tokens for users with an ordinary number of follows (not the most popular, not idle).
  // Issued 100 at a time, so their commits share fdatasyncs (the user-streams bench wants one per user).
  const people: SeededInstance['people'] = []
  for (let from = 0; from < o.tokens; from += 100) {
    const chunk = Array.from({ length: Math.min(100, o.tokens - from) }, async (_, k) => {
      const i = from + k
      const user = await store.read.users.get(userId((Math.floor(o.users / 10) + i) % o.users))
      if (!user) throw new Error(`no user ${i}`)
      const { access_token } = await domain.auth.tokens.issueUserToken(app, user, ['basic', 'stream', 'write_post', 'follow'])
      return { userId: user.id, token: access_token }
    })
    people.push(...(await Promise.all(chunk)))
  }
  // The server then opens a snapshot and an empty journal.
  await store.compact()
  await domain.close()
  return {
    people,
    postIds: { first: firstPost, last: firstPost + o.posts - 1 },
    userIds: { first: firstUser, last: firstUser + o.users - 1 },
    seconds: (performance.now() - started) / 1000,
  }
}
