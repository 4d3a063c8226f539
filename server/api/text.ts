/** `POST /text/process`: what a post's text would become, as a post would get it. */
import type { Entities } from './entities.js'

export interface ProcessedText {
  text: string
  html: string
  entities: Entities
}
