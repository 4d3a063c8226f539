/**
 * Each local actor's key pairs: RSA for draft-cavage HTTP Signatures and
 * Ed25519 for Object Integrity Proofs. Made the first time an actor needs
 * them and kept in `federation_keys`: remote servers cache a public key
 * under its key id, so a key made again would make every signature after it
 * look forged. Only the public halves are ever shown (the actor document).
 *
 * RSA keys are 2048 bits, as Mastodon, GoToSocial and Misskey make theirs:
 * every peer verifies them, and one takes a tenth of the CPU of the 4096
 * bits Fedify's generator picks (over a second per account on this kind of
 * machine, paid on the request that first needs the actor).
 */
import type { FederationKeyRow, JwkPair } from '../model/federation.js'
import type { Store } from '../store/port.js'

/** What Fedify's key functions are (loaded with Fedify, on first use). */
export interface KeyTools {
  exportJwk(key: CryptoKey): Promise<JsonWebKey>
  importJwk(jwk: JsonWebKey, type: 'public' | 'private'): Promise<CryptoKey>
}

/** Imported key pairs kept per user: importing costs more than a lookup, and every signature needs them. */
const KEPT = 1000

export class KeyPairs {
  private readonly imported = new Map<number, Promise<CryptoKeyPair[]>>()

  constructor(
    private readonly store: Store,
    private readonly tools: KeyTools,
  ) {}

  /** The RSA pair, then the Ed25519 pair, of user `userId`: the stored ones, made and stored now if there are none. */
  keyPairsOf(userId: number): Promise<CryptoKeyPair[]> {
    let pairs = this.imported.get(userId)
    if (!pairs) {
      pairs = this.load(userId)
      // A failure is not kept: the next call tries again.
      pairs.catch(() => this.imported.delete(userId))
      if (this.imported.size >= KEPT) this.imported.delete(this.imported.keys().next().value as number)
      this.imported.set(userId, pairs)
    }
    return pairs
  }

  private async load(userId: number): Promise<CryptoKeyPair[]> {
    const row = (await this.store.read.federation_keys.one('user', userId)) ?? (await this.make(userId))
    return Promise.all([this.importPair(row.rsa), this.importPair(row.ed25519)])
  }

  /** Makes both pairs and stores them, unless another node (or call) stored some first: then those. */
  private async make(userId: number): Promise<FederationKeyRow> {
    const [rsa, ed25519] = await Promise.all([this.exportPair('RSASSA-PKCS1-v1_5'), this.exportPair('Ed25519')])
    return this.store.transact(async (tx) => {
      const found = await tx.federation_keys.one('user', userId)
      return found ?? tx.federation_keys.insert({ user_id: userId, rsa, ed25519, created_at: new Date().toISOString() })
    })
  }

  private async exportPair(algorithm: 'RSASSA-PKCS1-v1_5' | 'Ed25519'): Promise<JwkPair> {
    const pair = await generateKeyPair(algorithm)
    return { public: await this.tools.exportJwk(pair.publicKey), private: await this.tools.exportJwk(pair.privateKey) }
  }

  private async importPair(pair: JwkPair): Promise<CryptoKeyPair> {
    return { publicKey: await this.tools.importJwk(pair.public, 'public'), privateKey: await this.tools.importJwk(pair.private, 'private') }
  }
}

/** A new extractable key pair for signing: RSASSA-PKCS1-v1_5 with SHA-256 over 2048 bits, or Ed25519. */
export async function generateKeyPair(algorithm: 'RSASSA-PKCS1-v1_5' | 'Ed25519'): Promise<CryptoKeyPair> {
  const params =
    algorithm === 'Ed25519' ? { name: 'Ed25519' } : { name: algorithm, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }
  return (await crypto.subtle.generateKey(params, true, ['sign', 'verify'])) as CryptoKeyPair
}
