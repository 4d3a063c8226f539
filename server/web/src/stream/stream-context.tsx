/** The signed-in tab's one user stream, shared by every live list. */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react'
import { useSession } from '../auth/session'
import { UserStream } from './user-stream'

const StreamContext = createContext<UserStream | null>(null)

export function StreamProvider({ children }: { children: ReactNode }) {
  const { token } = useSession()
  const [stream, setStream] = useState<UserStream | null>(null)
  useEffect(() => {
    if (!token) return setStream(null)
    const opened = new UserStream(token)
    setStream(opened)
    return () => opened.close()
  }, [token])
  return <StreamContext.Provider value={stream}>{children}</StreamContext.Provider>
}

/** The user stream, or null when signed out (lists then load once and do not update). */
export const useUserStream = (): UserStream | null => useContext(StreamContext)
