/** The OAuth grants and API calls as a client outside the server sends them, for the e2e stories. */

export interface GrantClient {
  client_id: string
  password_grant_secret: string
}

/**
 * POSTs the client credentials grant (an app token) to a running server at
 * `url`; answers the raw response. What the write-load stories send: each is
 * a durable write of a token, without the half second of a password hash.
 */
export const appTokenGrant = (url: string, app: { client_id: string; client_secret: string }): Promise<Response> =>
  fetch(`${url}/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: app.client_id, client_secret: app.client_secret }).toString(),
  })

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

/** A token through the password grant, as a client outside the server gets one. */
export async function signIn(server: { url: string }, app: GrantClient, username: string, password: string, scope: string): Promise<string> {
  const res = await passwordGrant(server.url, app, username, password, scope)
  if (res.status !== 200) throw new Error(`password grant for ${username} answered ${res.status}: ${await res.text()}`)
  return ((await res.json()) as { access_token: string }).access_token
}

/** An API call with a bearer token (a JSON body when given); answers the status and the parsed body. */
export async function api(server: { url: string }, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/stream/0/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: await res.json() }
}
