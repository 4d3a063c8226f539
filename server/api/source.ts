/** The client app that made a post, message or file (its `source`), or that a token is for (its `app`). */
export interface Source {
  client_id: string
  link: string
  name: string
}
