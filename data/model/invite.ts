/** An invitation to sign up on an instance whose registration is closed: a link that admits a number of people. */
export interface InviteRow {
  readonly id: number
  /** SHA-256 of the code the link carries (the code itself is shown once, when made). */
  code_hash: string
  /** How many more accounts the link may make. */
  uses_left: number
  /** How many it admitted at first. */
  uses: number
  created_at: string
}
