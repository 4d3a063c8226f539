#!/usr/bin/env node
// The published entry point runs the compiled CLI (built by `npm install` via `prepare`).
import { main } from '../dist/bin/main.js'

main(process.argv).then(
  (code) => {
    process.exitCode = code
  },
  (err) => {
    process.stderr.write(`svc: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exitCode = 1
  },
)
