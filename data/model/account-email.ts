/** An account's e-mail address: its owner's alone, never in an API answer for anyone else. */
export interface AccountEmail {
  /** As typed (trimmed); unique case-insensitively among local accounts. */
  address: string
  /** When its owner followed the confirmation link mailed to it; absent while unconfirmed. */
  confirmed_at?: string
}
