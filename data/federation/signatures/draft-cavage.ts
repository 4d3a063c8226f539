/**
 * Inbox POSTs signed the way most of the fediverse signs them (HTTP
 * Signatures, draft-cavage), checked before Fedify's inbox sees them, with
 * the parsed keys of `KeyCache` instead of Fedify's per-request reading of
 * its stored keys. The checks are Fedify's own functions, unchanged:
 * `verifyRequest` (the Date within the hour, the Digest of the body, the
 * signed headers, the key by `keyId`, and the signature; a cached key that
 * fails is fetched again once, key-cache.ts says from where) and
 * `doesActorOwnKey` (the signer is the activity's actor). Only a request
 * that passes both is handed to the federation that does not check
 * signatures again; any other goes to Fedify's inbox as it came, which
 * checks it itself (and takes a Linked Data signature or an Object
 * Integrity Proof this check does not), so its answers are Fedify's.
 */
import { Activity, detachSignature, doesActorOwnKey, verifyRequest, type Context } from '@fedify/fedify'
import { SIGNATURE_TIME_WINDOW_S } from '../rfc9421.js'
import type { KeyCache, KeyFetchers } from './key-cache.js'

/** Does `request` carry a draft-cavage signature (`Signature: keyId="…",…,signature="…"`)? */
export function signedDraftCavage(request: Request): boolean {
  const signature = request.headers.get('signature')
  return signature !== null && /(?:^|,)\s*keyId\s*=\s*"/i.test(signature) && /(?:^|,)\s*signature\s*=\s*"/i.test(signature)
}

/** What a request whose signature verified carries: its body's JSON, and the activity it is. */
export interface Verified {
  json: unknown
  activity: Activity
}

/**
 * `request`'s activity when its draft-cavage signature is good, by its
 * actor's key (fetched with `fetchers` when not held); null otherwise.
 * Never throws: anything unexpected is a null, for Fedify to answer.
 */
export async function verifiedDraftCavage(request: Request, ctx: Context<void>, keys: KeyCache, fetchers: KeyFetchers): Promise<Verified | null> {
  try {
    const loaders = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader }
    const key = await verifyRequest(request, {
      documentLoader: keys.loader(fetchers),
      contextLoader: ctx.contextLoader,
      keyCache: keys,
      // The window Fedify's inbox gives verifyRequest (without one, a signature's `created` would have a minute only).
      timeWindow: { seconds: SIGNATURE_TIME_WINDOW_S },
    })
    if (!key) return null
    const json: unknown = await request.clone().json()
    const activity = await Activity.fromJsonLd(detachSignature(json), loaders)
    return (await doesActorOwnKey(activity, key, loaders)) ? { json, activity } : null
  } catch {
    return null
  }
}
