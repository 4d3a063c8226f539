/**
 * Recovery codes: ten single-use codes that stand in for the authenticator
 * app when it is lost. Each is 10 random letters and digits of an alphabet
 * without look-alikes (about 50 bits), shown as `xxxxx-xxxxx`; typed back
 * in any case, with or without the dash. Only their hashes are kept: the
 * codes are random, so SHA-256 is enough, as for tokens.
 */
import { customAlphabet } from 'nanoid'
import { hashSecret } from '../../security/secrets.js'

export const RECOVERY_CODE_COUNT = 10

const codeOf = customAlphabet('23456789abcdefghjkmnpqrstuvwxyz', 10)

/** The form a code is hashed in: lower case, without spaces and dashes. */
const normalised = (code: string): string => code.toLowerCase().replace(/[\s-]/g, '')

/** Ten new codes, as shown to the user, with the hashes to keep. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const code = codeOf()
    return `${code.slice(0, 5)}-${code.slice(5)}`
  })
  return { codes, hashes: codes.map(recoveryCodeHash) }
}

/** The hash a typed code is looked up by. */
export const recoveryCodeHash = (code: string): string => hashSecret(`recovery:${normalised(code)}`)
