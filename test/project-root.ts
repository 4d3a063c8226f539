/**
 * The checkout's root. Tests run compiled from dist/test/ (`npm test` builds
 * them first); the bench and its helpers run from there too.
 */
import { basename, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const above = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '')
export const ROOT = basename(above) === 'dist' ? dirname(above) : above
