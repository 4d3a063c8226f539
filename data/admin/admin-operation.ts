/** What one admin operation is: a function of the domain and its plain JSON arguments (operations.ts lists them all). */
import type { Domain } from '../domain/domain.js'
import { invalid } from '../errors.js'

/** An operation's arguments as they arrive: plain JSON, unchecked. */
export type AdminArgs = Record<string, unknown>

/** How far a long operation has got (`done` of `total`, in its own unit), for a progress bar where it was asked. */
export type AdminProgress = (done: number, total: number) => void

export type AdminOperation = (domain: Domain, args: AdminArgs, progress?: AdminProgress) => Promise<unknown>

/** `args.id`, a number or its digits, as the id of a `what` (a post, a report). Errors: `invalid`. */
export const idOf = (args: AdminArgs, what: string): number => {
  const id = typeof args.id === 'string' && /^\d{1,15}$/.test(args.id) ? Number(args.id) : args.id
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) throw invalid(`id must be a ${what} id`)
  return id
}
