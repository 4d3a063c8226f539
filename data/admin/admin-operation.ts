/** What one admin operation is: a function of the domain and its plain JSON arguments (operations.ts lists them all). */
import type { Domain } from '../domain/domain.js'

/** An operation's arguments as they arrive: plain JSON, unchecked. */
export type AdminArgs = Record<string, unknown>

export type AdminOperation = (domain: Domain, args: AdminArgs) => Promise<unknown>
