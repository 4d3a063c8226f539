/** The OAuth password grant as a client outside the server sends it, for the e2e stories. */

export interface GrantClient {
  client_id: string
  password_grant_secret: string
}

/** POSTs the form-encoded password grant to a running server at `url`; answers the raw response. */
export const passwordGrant = (url: string, app: GrantClient, username: string, password: string, scope: string): Promise<Response> =>
  fetch(`${url}/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: app.client_id,
      password_grant_secret: app.password_grant_secret,
      username,
      password,
      scope,
    }).toString(),
  })
