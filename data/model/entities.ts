export interface MentionEntity {
  pos: number
  len: number
  name: string
  id: string
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
  amended_len?: number
}
export interface Entities {
  mentions: MentionEntity[]
  hashtags: HashtagEntity[]
  links: LinkEntity[]
}
export interface Annotation {
  type: string
  value: Record<string, unknown>
}
