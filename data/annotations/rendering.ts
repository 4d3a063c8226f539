/**
 * Stored annotations name svc's own addresses with marks, and are completed
 * when shown: the base URL (`svc-base:`, which the domain does not know), and
 * everything about a file that must not be frozen at write time (`svc-file:`
 * marks): its read token, bound to the object showing it, and content URLs
 * with their expiries, signed afresh so an attached photo never stops
 * loading. A file mark keeps the byte file's name, so rendering reads no row;
 * a replaced or deleted file's addresses die with its bytes.
 *
 * Both kinds of mark are sealed (FileLinks.seal): a client that writes one
 * into its annotations gets it dropped, never a token for someone else's
 * file nor a link dressed as svc's own. A base mark is completed only into
 * an address on svc's own origin: what follows the mark must be a path.
 * A deleted object's marks are all dropped: it hands out its files no more.
 */
import type { FileLinks, Grant, SignedContent } from '../security/file-links.js'
import type { FileRow } from '../model/file.js'
import { BASE_URL_MARK, FILE_MARK } from './core-types.js'

type MarkKind = 'token' | 'url' | 'expires' | 'permanent'

export interface RenderOptions {
  /** Public address of the server, without a trailing slash. */
  baseUrl: string
  /** The object showing the annotations: read tokens are bound to it; `null` shows none. */
  grant: Grant | null
  /**
   * For a stream event, which carries no file tokens: a public file's
   * permanent address is then its short one (`/f/<code>`), which needs none.
   */
  streamed?: boolean
  /** The object showing them is deleted or deactivated: it hands out nothing of the files it carried, neither token nor address. */
  withheld?: boolean
  /** The clock content URLs are signed at (tests). */
  now?: number
}

type Filling = RenderOptions & { now: number }

const iso = (signed: SignedContent): string => new Date(signed.expires * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')

/**
 * The only unsealed base marks still completed: those svc itself stored
 * before marks were sealed (a `+svc.core.user` value's avatar, cover and
 * profile addresses). Whoever wrote one, it can only lead to svc's own
 * image or profile page.
 */
const LEGACY_BASE_MARK = new RegExp(`^${BASE_URL_MARK}/(images/[A-Za-z0-9_-]+(\\.[A-Za-z0-9]+)*|@[a-z0-9_]+)$`)

export class AnnotationRenderer {
  constructor(private readonly links: FileLinks) {}

  /** The mark of svc's own address `path` (starting with `/`), completed with the base URL when shown. */
  baseMark(path: string): string {
    if (!path.startsWith('/')) throw new Error(`a base mark holds a path, not ${path}`)
    return this.links.seal(`${BASE_URL_MARK}${path}`)
  }

  /** The mark of a file's read token. */
  tokenMark(file: Pick<FileRow, 'id'>): string {
    return this.mark('token', file)
  }

  /** Do `annotations` (as stored) attach the file `fileId`? Every attachment carries its token mark. */
  carries(annotations: unknown, fileId: number): boolean {
    return JSON.stringify(annotations ?? null).includes(JSON.stringify(this.tokenMark({ id: fileId })))
  }

  /** The mark of the address that reads a public file through its read token. */
  permanentMark(file: Pick<FileRow, 'id'>): string {
    return this.mark('permanent', file)
  }

  /** The marks of a signed content URL of `key` (the root when `undefined`) and its expiry; `null` when there is no such content. */
  contentMarks(file: FileRow, key?: string): { url: string; expires: string } | null {
    const stored = key === undefined ? file.content?.stored : file.derived[key]?.stored
    if (!stored) return null
    return { url: this.mark('url', file, key, stored), expires: this.mark('expires', file, key, stored) }
  }

  /** `value` (annotations, or any JSON) with every mark filled in; a file mark that cannot be (or must not be) shown takes its key away. */
  render<T>(value: T, options: RenderOptions): T {
    // Most annotations carry no mark: answered as they are, without rebuilding them.
    const json = JSON.stringify(value)
    if (json === undefined || (!json.includes(`"${BASE_URL_MARK}`) && !json.includes(`"${FILE_MARK}`))) return value
    return this.walk(value, { ...options, now: options.now ?? Date.now() }) as T
  }

  private walk(value: unknown, o: Filling): unknown {
    if (typeof value === 'string') {
      if (value.startsWith(BASE_URL_MARK)) return this.base(value, o)
      return value.startsWith(FILE_MARK) ? this.fill(value, o) : value
    }
    if (Array.isArray(value)) return value.map((v) => this.walk(v, o)).filter((v) => v !== undefined)
    if (typeof value !== 'object' || value === null) return value
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      const filled = this.walk(v, o)
      if (filled !== undefined) out[k] = filled
    }
    return out
  }

  private mark(kind: MarkKind, file: Pick<FileRow, 'id'>, key?: string, stored?: string): string {
    return this.links.seal(`${FILE_MARK}${kind}:${file.id}:${key ?? ''}:${stored ?? ''}`)
  }

  /** A sealed base mark as an address on svc's own origin; anything else (a client's own mark) takes its key away. */
  private base(sealed: string, o: Filling): string | undefined {
    const text = this.links.unseal(sealed) ?? (LEGACY_BASE_MARK.test(sealed) ? sealed : null)
    const path = text?.slice(BASE_URL_MARK.length)
    if (path === undefined || !path.startsWith('/')) return undefined
    const url = o.baseUrl + path
    try {
      return new URL(url).origin === new URL(o.baseUrl).origin ? url : undefined
    } catch {
      return undefined
    }
  }

  private fill(sealed: string, o: Filling): string | undefined {
    const text = o.withheld ? null : this.links.unseal(sealed)
    if (text === null) return undefined
    const [kind, idText, key, stored] = text.slice(FILE_MARK.length).split(':')
    const file = { id: Number(idText) }
    switch (kind as MarkKind) {
      case 'token':
        return o.grant && !o.streamed ? this.links.grantToken(file, o.grant) : undefined
      case 'permanent': {
        // The mark is made only for public files, whose short address reads them while they stay public.
        if (o.streamed) return `${o.baseUrl}/f/${this.links.shortCode(file)}`
        // Without an object to bind it to, the file's own grant.
        const token = this.links.grantToken(file, o.grant ?? { kind: 'f', id: file.id })
        return `${o.baseUrl}/files/${file.id}/content?file_token=${token}`
      }
      case 'url': {
        const signed = this.links.signStored(file, key || undefined, stored, o.now)
        return `${o.baseUrl}/files-content/${file.id}${key ? `/${key}` : ''}?expires=${signed.expires}&sig=${signed.sig}`
      }
      case 'expires':
        return iso(this.links.signStored(file, key || undefined, stored, o.now))
      default:
        return undefined
    }
  }
}
