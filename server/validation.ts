/**
 * How svc validates a route's path and query parameters: with joi, under
 * the server's preferences, each distinct input checked once. A client asks
 * the same call again and again (a timeline polled every few seconds), and
 * joi's pass over a schema of a dozen keys cost more than serving a kept
 * answer did. Only valid inputs are remembered: an error is built afresh
 * each time, as hapi marks up the error it is handed.
 */
import Joi from 'joi'

/** Clients of the original API send parameters it ignored (jQuery's `_`, `include_client_info`, a whole user object on PUT /users/me): unknown keys are ignored, not refused. */
export const VALIDATION_PREFS: Joi.ValidationOptions = { allowUnknown: true }

/** Distinct inputs remembered per schema; past it the memory starts over (a cache-busting `_` makes every query new). */
const REMEMBERED = 1_000

/**
 * A fresh copy of a validated value, so no caller can change what the next
 * one is handed: arrays, dates and plain objects. Other objects, which none
 * of svc's parameter schemas make, are handed as they are.
 */
function copyOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyOf)
  if (value instanceof Date) return new Date(value.getTime())
  if (value === null || typeof value !== 'object') return value
  const proto = Object.getPrototypeOf(value) as unknown
  if (proto !== Object.prototype && proto !== null) return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyOf(v)]))
}

/** A hapi validation function for `schema` that remembers the inputs it found valid. */
export function rememberingValidator(schema: Joi.Schema): (value: unknown) => Promise<unknown> {
  const compiled = schema.prefs(VALIDATION_PREFS)
  const valid = new Map<string, unknown>()
  // async as hapi's type asks, though nothing here waits.
  return async (input) => {
    const key = JSON.stringify(input)
    if (valid.has(key)) return copyOf(valid.get(key))
    const { error, value } = compiled.validate(input)
    if (error) throw error
    if (valid.size >= REMEMBERED) valid.clear()
    valid.set(key, value)
    return copyOf(value)
  }
}
