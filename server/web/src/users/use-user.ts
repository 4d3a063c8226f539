/** One person read by username, kept here so relation buttons can put their answer back. */
import { useEffect, useState } from 'react'
import { api, ApiError } from '../api/client'
import type { User } from '../../../api'
import { useSession } from '../auth/session'

export interface UserState {
  user: User | null
  error: string | null
  /** The API answered 404: there is nobody by that name (or they are gone). */
  missing: boolean
  setUser(user: User): void
}

export function useUser(username: string): UserState {
  const { token } = useSession()
  const [user, setUser] = useState<User | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [missing, setMissing] = useState(false)
  useEffect(() => {
    let cancelled = false
    setUser(null)
    setError(null)
    setMissing(false)
    api
      .get<User>(`/users/@${encodeURIComponent(username)}`)
      .then((answer) => !cancelled && setUser(answer.data))
      .catch((err: unknown) => {
        if (cancelled) return
        setMissing(err instanceof ApiError && err.status === 404)
        setError(err instanceof ApiError ? err.message : 'This profile could not be loaded.')
      })
    return () => {
      cancelled = true
    }
  }, [username, token])
  return { user, error, missing, setUser }
}
