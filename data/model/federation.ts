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

/**
 * A lease on a job that one node of those sharing a store runs at a time
 * (the outgoing deliveries' pump): whoever holds it until a time still to
 * come runs the job; a node that dies lets it go when that time passes.
 */
export interface FederationLeaseRow {
  readonly id: number
  /** The job's name. */
  name: string
  /** The node holding it. */
  holder: string
  /** Held until then (ms); 0 once given back. */
  until: number
}

/** The last failure of deliveries to one remote host. */
export interface DeliveryFailure {
  /** What went wrong, shortened. */
  error: string
  /** When (ISO). */
  at: string
  /** Which try of its delivery it was (1: the first). */
  attempt: number
  /** The activity that was being delivered. */
  activity_id?: string
}

/**
 * What happened to the deliveries to one remote host (an inbox's
 * authority), for the operator: one row per host, counts and the last of
 * each outcome only, so it stays small however much is sent.
 */
export interface FederationHostRow {
  readonly id: number
  /** `name[:port]` of the inboxes. */
  host: string
  delivered: number
  last_delivered_at?: string
  /** Tries that failed (each retry that fails again counts). */
  failures: number
  last_failure?: DeliveryFailure
  /** Deliveries given up after their last try. */
  given_up: number
  last_given_up?: DeliveryFailure
}

/**
 * An operator's block of another server (`svc federation block`): a
 * domain, which covers its subdomains, or one `host:port`. Suspending (the
 * default) refuses what it sends, hides its accounts everywhere and sends
 * it nothing; `silence` only keeps its accounts out of the public streams
 * and search for those who do not follow them; `reject_media` shows none
 * of its images.
 */
export interface FederationDomainBlockRow {
  readonly id: number
  /** Lower-cased, without a trailing dot; `host:port` for one server of a host. */
  domain: string
  /** Limits instead of suspending: nothing is refused, the accounts stay for their followers. */
  silence: boolean
  reject_media: boolean
  created_at: string
}
