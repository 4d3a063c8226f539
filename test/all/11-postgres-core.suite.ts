/** The post and message stories (POSTGRES_CORE) again, on a PostgreSQL store of their own each (test/fixtures/postgres.ts). */
import { POSTGRES_CORE } from './groups.js'
import { runNamed } from './run-group.js'

process.env.SVC_TEST_STORE = 'postgres'
await runNamed(POSTGRES_CORE)
