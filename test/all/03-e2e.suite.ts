import { runGroup } from './run-group.js'

await runGroup(import.meta.url)
