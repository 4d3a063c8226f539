/** What the server put in the page about its instance (server/routes/web/web-client.ts). */
export interface Settings {
  name: string
  description: string
  client_id: string
  /** Who may make an account: anyone, anyone but the operator approves, invitation links only, nobody. */
  registration: 'open' | 'approval' | 'invite' | 'closed'
}

/** The sign-up button's words while anyone may ask for an account; null when nobody may. */
export const signUpLabel = (s: Settings): string | null => (s.registration === 'open' ? 'Sign up' : s.registration === 'approval' ? 'Request an account' : null)

/** How to get in when there is no sign-up button. */
export const joinText = (s: Settings): string | null =>
  s.registration === 'invite'
    ? 'New accounts here come by invitation: ask the operator for a link.'
    : s.registration === 'closed'
      ? 'This instance takes no new accounts.'
      : s.registration === 'approval'
        ? 'The operator approves each new account.'
        : null

const read = (): Settings => {
  const text = document.getElementById('svc-settings')?.textContent
  const fallback: Settings = { name: 'svc', description: '', client_id: '', registration: 'closed' }
  if (!text) return fallback
  try {
    return { ...fallback, ...(JSON.parse(text) as Partial<Settings>) }
  } catch {
    return fallback
  }
}

export const settings: Settings = read()
