/**
 * Inbox POSTs signed with RFC 9421 HTTP Message Signatures (`Signature-Input`
 * and a `Signature` dictionary), which Fedify 1.5 does not verify: svc
 * verifies them here, with the `http-message-signatures` library for the
 * signature base, and only a request that passed every check is handed to
 * the Fedify federation that skips its own signature check. The checks are
 * the ones Fedify makes of a draft-cavage signature, and RFC 9421's: the
 * signature covers the method, the target URI (or path and authority) and
 * the `Content-Digest`, which matches the body's bytes (RFC 9530, sha-256
 * or sha-512); it was created within the time window (and has not
 * expired); its key, fetched by `keyid` through Fedify (its document
 * loader: the private-address rule and the cache), verifies it (RSA
 * PKCS#1 v1.5 SHA-256 or PSS SHA-512, Ed25519); and that key belongs to
 * the activity's actor (Fedify's `doesActorOwnKey`). Anything else is a
 * 401 worded as Fedify's, never a 5xx.
 */
import { createHash, KeyObject } from 'node:crypto'
import { Activity, CryptographicKey, detachSignature, doesActorOwnKey, fetchKey, Multikey, type Context } from '@fedify/fedify'
import { createVerifier, httpbis } from 'http-message-signatures'
import { isInnerList, parseDictionary, serializeDictionary, type Dictionary, type InnerList } from 'structured-headers'

/** Fedify's default `signatureTimeWindow` (one hour), in seconds: a signature created longer ago, or further ahead, is refused. */
export const SIGNATURE_TIME_WINDOW_S = 3600

/** The digests of RFC 9530 taken, by their names in `Content-Digest`. */
const DIGESTS: Record<string, string> = { 'sha-256': 'sha256', 'sha-512': 'sha512' }

/** The algorithms taken for a key of each type; the first when the signature names none. */
const ALGORITHMS: Record<string, string[]> = { rsa: ['rsa-v1_5-sha256', 'rsa-pss-sha512'], ed25519: ['ed25519'] }

const text = (status: number, body: string) => new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
/** The inbox's answer to a signature that does not verify, as Fedify words it. */
const unverified = () => text(401, 'Failed to verify the request signature.')

export type Rfc9421Outcome = { ok: true; request: Request } | { ok: false; response: Response; reason: string }

/**
 * Is `request` signed with RFC 9421 only: a `Signature-Input` header, and a
 * `Signature` that is not a draft-cavage one (`keyId="…",…,signature="…"`),
 * which Fedify verifies itself?
 */
export function signedWithRfc9421Only(request: Request): boolean {
  const signature = request.headers.get('signature')
  if (request.headers.get('signature-input') === null || signature === null) return false
  return !/(?:^|,)\s*(?:keyId|signature)\s*=\s*"/i.test(signature)
}

const refuse = (reason: string, response = unverified()): Rfc9421Outcome => ({ ok: false, response, reason })

/** The one component named `name`, without parameters, among those the signature covers. */
const covers = (input: InnerList, name: string) => input[0].some(([item, params]) => item === name && params.size === 0)

const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value)

/**
 * Verifies `request`'s RFC 9421 signature as above. On success the request
 * again (its body was read), to hand to the federation that skips
 * signature checks; otherwise the answer to give (a 401, or a 400 for a
 * body that is not an activity) and why.
 */
export async function verifyRfc9421(request: Request, ctx: Context<void>): Promise<Rfc9421Outcome> {
  try {
    return await verify(request, ctx, Math.floor(Date.now() / 1000))
  } catch (err) {
    return refuse(`unexpected: ${(err as Error).message}`)
  }
}

async function verify(request: Request, ctx: Context<void>, now: number): Promise<Rfc9421Outcome> {
  const body = Buffer.from(await request.arrayBuffer())
  let inputs: Dictionary
  let signatures: Dictionary
  try {
    inputs = parseDictionary(request.headers.get('signature-input') ?? '')
    signatures = parseDictionary(request.headers.get('signature') ?? '')
  } catch {
    return refuse('malformed Signature-Input or Signature')
  }
  // The first signature with both halves; any other is not looked at.
  const label = [...inputs.keys()].find((name) => {
    const input = inputs.get(name)
    return input !== undefined && isInnerList(input) && signatures.get(name)?.[0] instanceof ArrayBuffer
  })
  if (label === undefined) return refuse('no signature with its input')
  const input = inputs.get(label) as InnerList
  if (!input[0].every(([item]) => typeof item === 'string')) return refuse('a component that is not a string')
  if (!covers(input, '@method')) return refuse('@method not covered')
  if (!covers(input, '@target-uri') && !(covers(input, '@path') && covers(input, '@authority')))
    return refuse('@target-uri (or @path and @authority) not covered')
  if (!covers(input, 'content-digest')) return refuse('content-digest not covered')

  const params = input[1]
  const keyid = params.get('keyid')
  const created = params.get('created')
  const expires = params.get('expires')
  const alg = params.get('alg')
  if (typeof keyid !== 'string') return refuse('no keyid')
  if (!isInteger(created)) return refuse('no created')
  if (now - created > SIGNATURE_TIME_WINDOW_S) return refuse('created too long ago')
  if (created - now > SIGNATURE_TIME_WINDOW_S) return refuse('created in the future')
  if (expires !== undefined && (!isInteger(expires) || expires < now)) return refuse('expired')
  if (alg !== undefined && typeof alg !== 'string') return refuse('malformed alg')

  const digestError = checkContentDigest(request.headers.get('content-digest'), body)
  if (digestError) return refuse(digestError)

  let keyUrl: URL
  try {
    keyUrl = new URL(keyid)
  } catch {
    return refuse('keyid is not a URL')
  }
  if (keyUrl.protocol !== 'https:' && keyUrl.protocol !== 'http:') return refuse('keyid is not an HTTP(S) URL')
  const loaders = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader }
  const key = (await fetchKey(keyUrl, CryptographicKey, loaders)).key ?? (await fetchKey(keyUrl, Multikey, loaders)).key
  if (!key?.publicKey) return refuse(`key ${keyid} not found`)
  const publicKey = KeyObject.from(key.publicKey)
  const allowed = ALGORITHMS[publicKey.asymmetricKeyType ?? ''] ?? []
  const algorithm = alg ?? allowed[0]
  if (algorithm === undefined || !allowed.includes(algorithm)) return refuse(`algorithm ${algorithm} for a ${publicKey.asymmetricKeyType} key`)

  // The library verifies the one signature chosen: the headers carry only it.
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => (headers[name] = value))
  headers['signature-input'] = serializeDictionary(new Map([[label, input]]))
  headers['signature'] = serializeDictionary(new Map([[label, signatures.get(label)!]]))
  let verified: boolean | null
  try {
    verified = await httpbis.verifyMessage(
      {
        keyLookup: async (p) => (p.keyid === keyid ? { id: keyid, algs: [algorithm], verify: createVerifier(publicKey, algorithm) } : null),
        requiredParams: ['created', 'keyid'],
        requiredFields: ['@method', 'content-digest'],
        maxAge: SIGNATURE_TIME_WINDOW_S,
        notAfter: now + SIGNATURE_TIME_WINDOW_S,
      },
      { method: request.method, url: request.url, headers },
    )
  } catch (err) {
    return refuse(`not verified: ${(err as Error).message}`)
  }
  if (verified !== true) return refuse('signature does not verify')

  // The signer must be the activity's actor.
  let json: unknown
  try {
    json = JSON.parse(body.toString('utf8'))
  } catch {
    return refuse('not JSON', text(400, 'Invalid JSON.'))
  }
  let activity: Activity
  try {
    activity = await Activity.fromJsonLd(detachSignature(json), loaders)
  } catch {
    return refuse('not an activity', text(400, 'Invalid activity.'))
  }
  // Fedify's rule for a CryptographicKey; a Multikey names its actor as its controller.
  const owned =
    key instanceof CryptographicKey
      ? await doesActorOwnKey(activity, key, loaders)
      : key.controllerId !== null && key.controllerId.href === activity.actorId?.href
  if (!owned) return refuse('the signer is not the actor', text(401, 'The signer and the actor do not match.'))
  return { ok: true, request: new Request(request.url, { method: request.method, headers: request.headers, body }) }
}

/** Why `Content-Digest` does not vouch for `body`, or null when it does: each sha-256 or sha-512 digest it gives (one at least) is the body's. */
function checkContentDigest(header: string | null, body: Buffer): string | null {
  if (header === null) return 'no Content-Digest'
  let digests: Dictionary
  try {
    digests = parseDictionary(header)
  } catch {
    return 'malformed Content-Digest'
  }
  let checked = 0
  for (const [name, member] of digests) {
    const hash = DIGESTS[name]
    if (!hash) continue
    const value = member[0]
    if (!(value instanceof ArrayBuffer)) return `malformed ${name} digest`
    if (!createHash(hash).update(body).digest().equals(Buffer.from(value))) return `${name} digest does not match the body`
    checked++
  }
  return checked === 0 ? 'no sha-256 or sha-512 digest' : null
}
