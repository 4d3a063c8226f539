/** The bad-input fuzz (POSTGRES_FUZZ) again, on a PostgreSQL store of its own (test/fixtures/postgres.ts): the longest of them, in a process of its own. */
import { POSTGRES_FUZZ } from './groups.js'
import { runNamed } from './run-group.js'

process.env.SVC_TEST_STORE = 'postgres'
await runNamed(POSTGRES_FUZZ)
