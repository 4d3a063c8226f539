/**
 * The text processor as a service (`POST /text/process`): what a post's text
 * would become, without storing anything.
 */
import { POST_MAX_LENGTH } from '../limits.js'
import type { Entities } from '../model/entities.js'
import { renderHtml } from './html.js'
import { processText, type EntitiesInput, type TextOptions } from './process.js'

export interface ProcessedText {
  text: string
  html: string
  entities: Entities
}

/** Where mentions find their users (the user service, in practice). */
export interface MentionableUsers {
  byUsername: TextOptions['findUser']
  get: NonNullable<TextOptions['findUserById']>
}

export class TextService {
  constructor(private readonly users: MentionableUsers) {}

  /**
   * Returns `text` processed as a post's would be (amended text, HTML and
   * entities); mentions are made of existing users. Nothing is stored and no
   * event is emitted. Errors: `invalid` (empty or over 256 characters, bad
   * user-given links, user-given mentions).
   */
  async process(text: string, entities: EntitiesInput | undefined): Promise<ProcessedText> {
    const processed = await processText(text, entities, {
      maxLength: POST_MAX_LENGTH,
      findUser: (username) => this.users.byUsername(username),
      findUserById: (id) => this.users.get(id),
    })
    return { text: processed.text, html: renderHtml(processed.text, processed.entities), entities: processed.entities }
  }
}
