/**
 * Addresses and tokens of files, all signed with the instance's session
 * secret: time-limited content URLs (`url`), write tokens, read tokens
 * (`file_token_read`) and a public file's short code (`url_short`). Nothing
 * here is stored: a content signature covers the byte file's name, so a
 * deleted file's addresses die with it.
 *
 * A read token names the object that grants it (the spec's Authentication
 * rule 4): `<kind><id>.<mac>`, the mac over the file id and the grant, so it
 * cannot be moved to another file or another object. Whether the grant still
 * holds (the object exists and the caller may see it) is for the file
 * service to ask; this only checks the signature.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { FileRow } from '../model/file.js'

/** How long a content URL lives at least; its expiry is rounded up to the hour so URLs stay stable (cacheable) within it. */
export const CONTENT_URL_MIN_LIFETIME_MS = 60 * 60_000
const HOUR_MS = 60 * 60_000
const SHORT_SIG_LENGTH = 8

/** Objects that grant reading a file they carry: `p` post, `m` message, `c` channel, `u` user, `f` a public file (itself, or one carrying it). */
export type GrantKind = 'p' | 'm' | 'c' | 'u' | 'f'
export const GRANT_KINDS: readonly GrantKind[] = ['p', 'm', 'c', 'u', 'f']

export interface Grant {
  kind: GrantKind
  id: number
}

const READ_TOKEN = /^([pmcuf])(\d{1,15})\.([A-Za-z0-9_-]{32})$/

export interface SignedContent {
  /** Unix seconds. */
  expires: number
  sig: string
}

const same = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

export class FileLinks {
  constructor(private readonly secret: string) {}

  private mac(text: string, encoding: 'base64url' | 'hex' = 'base64url'): string {
    return createHmac('sha256', this.secret).update(text).digest(encoding)
  }

  /** The signature of the content of `key` (the root when `undefined`) of `file`, valid until `expires`. */
  private contentMac(file: Pick<FileRow, 'id'>, key: string | undefined, stored: string, expires: number): string {
    return this.mac(`file-content:${file.id}:${key ?? ''}:${stored}:${expires}`)
  }

  /** Signs the current content of `key` (root when `undefined`); `null` when there is none. */
  signContent(file: FileRow, key: string | undefined, now = Date.now()): SignedContent | null {
    const stored = key === undefined ? file.content?.stored : file.derived[key]?.stored
    return stored ? this.signStored(file, key, stored, now) : null
  }

  /** Signs the byte file `stored` as the content of `key` of `file`, without reading the row (annotations keep the name). */
  signStored(file: Pick<FileRow, 'id'>, key: string | undefined, stored: string, now = Date.now()): SignedContent {
    const expires = Math.ceil((now + CONTENT_URL_MIN_LIFETIME_MS) / HOUR_MS) * (HOUR_MS / 1000)
    return { expires, sig: this.contentMac(file, key, stored, expires) }
  }

  /** Is `signed` a live signature of the current content of `key` of `file`? */
  checkContent(file: FileRow, key: string | undefined, signed: SignedContent, now = Date.now()): boolean {
    const stored = key === undefined ? file.content?.stored : file.derived[key]?.stored
    if (!stored || signed.expires * 1000 <= now) return false
    return same(this.contentMac(file, key, stored, signed.expires), signed.sig)
  }

  /**
   * The write token of a file. Derived rather than random, so svc can show
   * it again to its owner (the spec's rule for `files`-scoped fetches); the
   * row keeps only its hash, as for access tokens.
   */
  writeToken(file: Pick<FileRow, 'id' | 'created_at'>): string {
    return this.mac(`file-write:${file.id}:${file.created_at}`)
  }

  /** The read token of `file` that holds while `grant` does. */
  grantToken(file: Pick<FileRow, 'id'>, grant: Grant): string {
    return `${grant.kind}${grant.id}.${this.mac(`file-read:${file.id}:${grant.kind}:${grant.id}`).slice(0, 32)}`
  }

  /** The read token a public file hands out: granted by the file itself, good while it stays public. */
  readToken(file: Pick<FileRow, 'id'>): string {
    return this.grantToken(file, { kind: 'f', id: file.id })
  }

  /** The grant a read token of `file` names, when its signature is right; `null` for anything else. */
  grantOf(file: Pick<FileRow, 'id'>, token: string): Grant | null {
    const m = READ_TOKEN.exec(token)
    if (!m) return null
    const grant: Grant = { kind: m[1] as GrantKind, id: Number(m[2]) }
    return Number.isSafeInteger(grant.id) && same(this.grantToken(file, grant), token) ? grant : null
  }

  /**
   * Seals `text` (a stored annotation mark) so that only svc can have
   * written it: a client that types a mark into its annotations gets
   * nothing rendered from it.
   */
  seal(text: string): string {
    return `${text}:${this.mac(`mark:${text}`).slice(0, 22)}`
  }

  /** The text of a sealed mark, or `null` when the seal is wrong. */
  unseal(sealed: string): string | null {
    const at = sealed.lastIndexOf(':')
    if (at < 0) return null
    const text = sealed.slice(0, at)
    return same(this.seal(text), sealed) ? text : null
  }

  /** The short code of a file: its id in base 36 and a signature (lower-case, as paths are), so codes cannot be walked. */
  shortCode(file: Pick<FileRow, 'id'>): string {
    return `${file.id.toString(36)}${this.mac(`file-short:${file.id}`, 'hex').slice(0, SHORT_SIG_LENGTH)}`
  }

  /** The file id a short code stands for (a `.ext` may be appended); `null` for a forged or malformed one. */
  idOfShortCode(code: string): number | null {
    const bare = code.replace(/\.[A-Za-z0-9]{1,10}$/, '')
    const idPart = bare.slice(0, -SHORT_SIG_LENGTH)
    if (!/^[0-9a-z]{1,11}$/.test(idPart)) return null
    const id = parseInt(idPart, 36)
    return Number.isSafeInteger(id) && same(this.shortCode({ id }), bare) ? id : null
  }
}
