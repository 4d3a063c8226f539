/**
 * Inbox POSTs signed the way most of the fediverse signs them (HTTP
 * Signatures, draft-cavage), checked before Fedify's inbox sees them, with
 * the parsed keys of `KeyCache` instead of Fedify's per-request reading of
 * its stored keys. The checks are Fedify's own functions, unchanged:
 * `verifyRequest` (the Date within the hour, the Digest of the body, the
 * signed headers, the key by `keyId`, and the signature; a cached key that
 * fails is fetched again once, key-cache.ts says from where) and
 * `doesActorOwnKey` (the signer is the activity's actor). A request that
 * passes both is `verified`, for the caller to take without Fedify's
 * signature check. One that fails either is refused with Fedify's 401 when
 * nothing else could vouch for it (Fedify's inbox would check the same
 * signature again, and fetch an unreachable key again); one that carries a
 * Linked Data signature or an Object Integrity Proof, which this check
 * does not take, or that is not an activity with an actor, goes to
 * Fedify's inbox as it came, so that its answer is Fedify's.
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

/** The check's outcome: verified; refused (Fedify's answer, as its inbox would give it); or for Fedify's inbox to decide. */
export type DraftCavageOutcome = { verified: Verified } | { refusal: Response } | { forFedify: true }

const forFedify = { forFedify: true } as const
const refused = (message: string) => ({ refusal: new Response(message, { status: 401, headers: { 'Content-Type': 'text/plain; charset=utf-8' } }) })

/** Checks `request`'s draft-cavage signature as above, its actor's key fetched with `fetchers` when not held. Never throws. */
export async function checkDraftCavage(request: Request, ctx: Context<void>, keys: KeyCache, fetchers: KeyFetchers): Promise<DraftCavageOutcome> {
  try {
    const loaders = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader }
    const key = await verifyRequest(request, {
      documentLoader: keys.loader(fetchers),
      contextLoader: ctx.contextLoader,
      keyCache: keys,
      // The window Fedify's inbox gives verifyRequest (without one, a signature's `created` would have a minute only).
      timeWindow: { seconds: SIGNATURE_TIME_WINDOW_S },
    })
    const json: unknown = await request.clone().json()
    const activity = await Activity.fromJsonLd(detachSignature(json), loaders)
    if (key && (await doesActorOwnKey(activity, key, loaders))) return { verified: { json, activity } }
    // Fedify's inbox takes an activity on a Linked Data signature or a proof, and answers one without an actor otherwise than a 401.
    const vouched = typeof json !== 'object' || json === null || 'signature' in json || 'proof' in json || activity.actorId === null
    if (vouched) return forFedify
    return refused(key ? 'The signer and the actor do not match.' : 'Failed to verify the request signature.')
  } catch {
    return forFedify
  }
}
