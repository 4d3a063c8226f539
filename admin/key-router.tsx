/**
 * Keys for the console's components. Ink subscribes each `useInput` handler
 * in a passive effect, which React may run well after the frame showing the
 * new state is on screen: a key typed then reaches the handler of an older
 * render (a list not loaded yet, a dialog already closed) or no handler at
 * all. So the console subscribes once, and hands each key to the handlers of
 * the latest commit: `useKeys` registers them in layout effects, which run
 * within the commit itself.
 */
import { useInput, type Key } from 'ink'
import { createContext, useContext, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react'

export type KeyHandler = (input: string, key: Key) => void

const Handlers = createContext<Set<RefObject<KeyHandler>> | null>(null)

export function KeyRouter({ children }: { children: ReactNode }) {
  const handlers = useRef(new Set<RefObject<KeyHandler>>()).current
  useInput((input, key) => {
    // A dialog a handler opens registers with the next commit: the key that opened it is not its.
    for (const handler of [...handlers]) handler.current(input, key)
  })
  return <Handlers.Provider value={handlers}>{children}</Handlers.Provider>
}

/** Hands keys to `handler` (the latest render's) while `active`. */
export function useKeys(handler: KeyHandler, active = true): void {
  const handlers = useContext(Handlers)
  if (!handlers) throw new Error('useKeys needs a KeyRouter above it')
  const latest = useRef(handler)
  useLayoutEffect(() => {
    latest.current = handler
  })
  useLayoutEffect(() => {
    if (!active) return
    handlers.add(latest)
    return () => {
      handlers.delete(latest)
    }
  }, [handlers, active])
}
