/** The entities of a text (spec: Entities object): positions and lengths in code points. */
export interface MentionEntity {
  pos: number
  len: number
  name: string
  id: string
  /** On a reply that starts with the mention. */
  is_leading?: boolean
}

export interface HashtagEntity {
  pos: number
  len: number
  name: string
}

export interface LinkEntity {
  pos: number
  len: number
  text: string
  url: string
  /** When the text shown was amended (a markdown link's text with its domain after it). */
  amended_len?: number
}

export interface Entities {
  mentions: MentionEntity[]
  hashtags: HashtagEntity[]
  links: LinkEntity[]
}
