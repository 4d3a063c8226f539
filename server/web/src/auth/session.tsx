/**
 * Signing in: the OAuth implicit flow against svc's own pages, as the
 * client app svc registered for itself. The token comes back in the
 * fragment of `/`, is checked against the state we sent, and is kept in
 * localStorage; a refused token signs the person out. Signing out
 * deauthorizes the token on the server (which also ends the browser's
 * sign-in session of the OAuth pages) before forgetting it.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { api, setApiToken } from '../api/client'
import type { User } from '../../../api'
import { settings } from '../settings'

const TOKEN_KEY = 'svc.token'
const STATE_KEY = 'svc.oauth-state'
const RETURN_KEY = 'svc.return-to'
export const SCOPES = 'basic stream write_post follow update_profile public_messages messages files export'

export interface Session {
  token: string | null
  /** The signed-in person, once known. */
  me: User | null
  /** What went wrong on the way back from the sign-in page. */
  error: string | null
  signIn(returnTo?: string): void
  signUp(returnTo?: string): void
  signOut(): Promise<void>
  /** Reads the signed-in person again (after a profile change). */
  refreshMe(): Promise<void>
}

const SessionContext = createContext<Session | null>(null)

export const useSession = (): Session => {
  const session = useContext(SessionContext)
  if (!session) throw new Error('useSession outside <SessionProvider>')
  return session
}

function authorizeUrl(returnTo: string): string {
  const state = crypto.randomUUID()
  sessionStorage.setItem(STATE_KEY, state)
  sessionStorage.setItem(RETURN_KEY, returnTo)
  const params = new URLSearchParams({
    client_id: settings.client_id,
    response_type: 'token',
    redirect_uri: `${location.origin}/`,
    scope: SCOPES,
    state,
  })
  return `/oauth/authenticate?${params}`
}

/** The token in the fragment the sign-in page sent us back with, if its state is ours; clears the fragment. */
function takeReturnedToken(): { token: string | null; error: string | null; returnTo: string | null } {
  if (!location.hash.includes('access_token=') && !location.hash.includes('error=')) return { token: null, error: null, returnTo: null }
  const params = new URLSearchParams(location.hash.slice(1))
  history.replaceState(null, '', location.pathname + location.search)
  const expected = sessionStorage.getItem(STATE_KEY)
  const returnTo = sessionStorage.getItem(RETURN_KEY)
  sessionStorage.removeItem(STATE_KEY)
  sessionStorage.removeItem(RETURN_KEY)
  if (params.get('error')) return { token: null, error: 'Sign-in was cancelled.', returnTo: null }
  if (!expected || params.get('state') !== expected) return { token: null, error: 'That sign-in did not start here; please sign in again.', returnTo: null }
  return { token: params.get('access_token'), error: null, returnTo }
}

export function SessionProvider({ children, onReturn }: { children: ReactNode; onReturn: (path: string) => void }) {
  const [returned] = useState(takeReturnedToken)
  const [token, setToken] = useState<string | null>(() => {
    if (returned.token) localStorage.setItem(TOKEN_KEY, returned.token)
    return returned.token ?? localStorage.getItem(TOKEN_KEY)
  })
  const [me, setMe] = useState<User | null>(null)

  const forget = useCallback(() => {
    localStorage.removeItem(TOKEN_KEY)
    setToken(null)
    setMe(null)
  }, [])
  // A refused token is only forgotten: asking the server to deauthorize it again would be refused again.
  setApiToken(token, forget)

  const signOut = useCallback(async () => {
    // Forgotten even when the server cannot be reached: the person asked to be signed out here.
    await api.delete('/token').catch(() => undefined)
    forget()
  }, [forget])

  const refreshMe = useCallback(async () => {
    if (!token) return
    const { data } = await api.get<User>('/users/me', { include_annotations: 1 })
    setMe(data)
  }, [token])

  useEffect(() => {
    void refreshMe().catch(() => undefined)
  }, [refreshMe])

  const returnTo = useRef(onReturn)
  useEffect(() => {
    if (returned.token) returnTo.current(returned.returnTo && returned.returnTo !== '/' ? returned.returnTo : '/home')
  }, [returned])

  const value = useMemo<Session>(
    () => ({
      token,
      me,
      error: returned.error,
      signIn: (returnTo = '/home') => location.assign(authorizeUrl(returnTo)),
      signUp: (returnTo = '/home') => location.assign(`/signup?next=${encodeURIComponent(authorizeUrl(returnTo))}`),
      signOut,
      refreshMe,
    }),
    [token, me, returned.error, signOut, refreshMe],
  )
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>
}
