/**
 * The test files that share a process. Starting node, tap's process-info
 * hook and svc's ~700 modules costs about a second of CPU per process, and
 * every process compiles hapi, joi and the domain afresh: the twelve files
 * of test/server/posts take 40 s of CPU as twelve processes and 16 s as one.
 * So every test file runs in one of a few groups, each one tap process:
 * those that start `svc` processes (e2e/, bin/) too, since each of their
 * processes cost about a second of CPU before its first test (a file that
 * only asks `svc --version`); their children are processes of their own
 * anyway.
 *
 * A file belongs to the group whose folder prefix matches it longest, so a
 * new file always lands in one. Each group is a `NN-<name>.suite.ts` file
 * next to this one; `npm run test:file` still runs any test file alone.
 * tap runs the suite files in the order of their names, three at a time:
 * the numbers start the longest first (the browser's, bin/'s and e2e/'s,
 * much of whose time is chromium's and svc's processes'), and the short
 * ones fill in at the end.
 */
export const GROUPS: Readonly<Record<string, readonly string[]>> = {
  admin: ['admin', 'architecture.test', 'all'],
  browser: ['browser'],
  data: ['data'],
  'data-places': ['data/places'],
  'data-store': ['data/store'],
  server: ['server'],
  'server-federation': ['server/federation', 'data/federation'],
  'server-files-users': ['server/files', 'server/places', 'server/users'],
  'server-posts-channels': ['server/posts', 'server/channels', 'server/relations', 'server/explore', 'server/filters'],
  'server-streams': ['server/streams', 'server/admin-socket.test'],
  bin: ['bin'],
  e2e: ['e2e'],
  'e2e-federation': ['e2e/federation.test', 'e2e/federation-interactions.test'],
}

/**
 * The stories that run again on PostgreSQL (SVC_TEST_STORE=postgres), where
 * the two stores differ most, in three processes of about a minute (each
 * instance there costs a schema of its own, about a second to make): the
 * routes' bad input (07-postgres-fuzz.suite.ts), posts and messages
 * (11-postgres-core.suite.ts), user and app streams (14-postgres-streams.suite.ts).
 */
export const POSTGRES_FUZZ = ['server/bad-input-fuzz.test']
export const POSTGRES_CORE = ['server/posts/posts.test', 'server/posts/post-streams.test', 'server/channels/messages.test']
export const POSTGRES_STREAMS = ['server/streams/user-stream.test', 'server/streams/app-stream-events.test']

/** Folders whose files each run in a process of their own: the benches, which are no tests (`npm run bench`). */
export const ALONE = ['bench']

/** The group of a test file, by its path under test/ (`server/posts/posts.test.ts`), or undefined for a file that runs alone. */
export function groupOf(path: string): string | undefined {
  if (ALONE.some((folder) => path.startsWith(`${folder}/`))) return undefined
  const name = path.replace(/\.[jt]sx?$/, '')
  let best: { group: string; length: number } | undefined
  for (const [group, prefixes] of Object.entries(GROUPS)) {
    for (const prefix of prefixes) {
      const matches = name === prefix || name.startsWith(`${prefix}/`)
      if (matches && (!best || prefix.length > best.length)) best = { group, length: prefix.length }
    }
  }
  return best?.group
}
