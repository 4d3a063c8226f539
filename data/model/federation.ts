/**
 * What federation keeps in the store: each local actor's key pairs, and
 * the rows under Fedify's key-value store and message queue, which must
 * outlive the process (a cached remote key, an activity acknowledged to its
 * sender but not yet processed).
 */
/** A key pair as JWKs; the private half never leaves the store. */
export interface JwkPair {
  public: JsonWebKey
  private: JsonWebKey
}

/** A local user's key pairs, made once and never again: remote servers cache the public keys under the actor's key ids. */
export interface FederationKeyRow {
  readonly id: number
  user_id: number
  /** RSASSA-PKCS1-v1_5, for draft-cavage HTTP Signatures (what Mastodon verifies). */
  rsa: JwkPair
  /** Ed25519, for Object Integrity Proofs. */
  ed25519: JwkPair
  created_at: string
}

/**
 * A local user's Follow of a remote account, sent and not yet answered: the
 * follow itself exists only once the remote server accepts it; a Reject
 * or an unfollow removes this.
 */
export interface PendingFollowRow {
  readonly id: number
  user_id: number
  target_id: number
  /** The Follow activity's id, which the Accept or Reject names. */
  activity_id: string
  created_at: string
}

/** One entry of Fedify's key-value store. */
export interface FederationKvRow {
  readonly id: number
  /** The Fedify key as JSON, or a hash of it when it is long (index keys stay short). */
  key: string
  value: unknown
  /** When the entry stops counting (ms); absent: never. */
  expires_at?: number
}

/** One message of Fedify's queue (an incoming activity to process, an outgoing one to deliver). */
export interface FederationQueueRow {
  readonly id: number
  message: unknown
  /** Not handed out before this time (ms): a delayed retry. */
  due_at: number
  /** A node took it and holds it until then (ms); one that dies leaves it for another once this passes. */
  claimed_until?: number
}
