/** The rule of an account's e-mail address, and its lookup key. */
import { invalid } from '../errors.js'

/** The longest address SMTP carries (RFC 5321's path limit less its brackets). */
export const EMAIL_MAX_LENGTH = 254

// One @, something on each side, a dot in the domain; nothing a mail header or a page would read as more than an address.
const ADDRESS = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/

/** `text` as an address to keep: trimmed and checked. Errors: `invalid`. */
export function checkEmailAddress(text: string): string {
  const address = text.trim()
  if (address.length > EMAIL_MAX_LENGTH || !ADDRESS.test(address)) throw invalid(`${address === '' ? 'an empty text' : 'that'} is not an e-mail address`)
  return address
}

/** The lookup key of an address: addresses are told apart case-insensitively (the store's `users.email` index says the same). */
export const emailKey = (address: string): string => address.toLowerCase()
