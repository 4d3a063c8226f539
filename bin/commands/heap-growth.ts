/**
 * How far V8 lets the heap grow past what a major collection found live,
 * for `svc serve`. By default V8 lets the old generation reach several times
 * the live heap before it collects again; a server whose rows live on disk
 * and whose indexes live in typed arrays keeps a small live heap, so that
 * headroom is garbage waiting, and it was most of the server's RSS after a
 * burst of writes. Half again the live heap keeps the RSS near what is in
 * use; collections come more often, marked beside the server's thread.
 *
 * Unlike the heap's size limit, V8 reads this flag at every collection, so
 * it can be set here, after node started. An operator's own value (on
 * node's command line or in NODE_OPTIONS) is kept.
 */
import { setFlagsFromString } from 'node:v8'

export const HEAP_GROWING_PERCENT = 50

const FLAG = '--heap-growing-percent'

/** Sets the growth bound unless the process was started with one; answers the flag in force, or null for the operator's. */
export function boundHeapGrowth(execArgv: readonly string[], nodeOptions: string | undefined): string | null {
  // V8 takes its flags' words joined by `-` or by `_`.
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)]
    .map((arg) => arg.replace(/_/g, '-'))
    .some((arg) => arg === FLAG || arg.startsWith(`${FLAG}=`))
  if (given) return null
  const flag = `${FLAG}=${HEAP_GROWING_PERCENT}`
  setFlagsFromString(flag)
  return flag
}
