/** The user and app stream stories (POSTGRES_STREAMS) again, on a PostgreSQL store of their own each (test/fixtures/postgres.ts). */
import { POSTGRES_STREAMS } from './groups.js'
import { runNamed } from './run-group.js'

process.env.SVC_TEST_STORE = 'postgres'
await runNamed(POSTGRES_STREAMS)
