/**
 * Keys for the console's components. Ink subscribes each `useInput` handler
 * in a passive effect, which React may run well after the frame showing the
 * new state is on screen: a key typed then reaches the handler of an older
 * render (a list not loaded yet, a dialog already closed) or no handler at
 * all. So the console subscribes once, and hands each key to the handlers of
 * the latest commit: `useKeys` registers them in layout effects, which run
 * within the commit itself. A box the operator types into takes the keys
 * at once instead (`useKeyCapture`): the keys typed right after the one
 * that opened it, before anything is drawn, are its too.
 */
import { useInput, type Key } from 'ink'
import { createContext, useCallback, useContext, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react'

export type KeyHandler = (input: string, key: Key) => void

interface Router {
  handlers: Set<RefObject<KeyHandler>>
  /** While set, it alone gets the keys. */
  capture: { current: KeyHandler | null }
}

const Routes = createContext<Router | null>(null)

const LINE_END = /(\r\n|\r|\n)/

/**
 * The keys of one input chunk. Ink hands a pasted chunk over as one input,
 * Enter included ("6\r"): split at line ends, so the text is typed and the
 * Enter is a key of its own, as if both had been typed.
 */
export function keysOf(input: string, key: Key): [string, Key][] {
  if (input.length < 2 || !LINE_END.test(input)) return [[input, key]]
  return input
    .split(LINE_END)
    .filter((part) => part !== '')
    .map((part): [string, Key] => (LINE_END.test(part) ? ['', { ...key, return: true }] : [part, key]))
}

export function KeyRouter({ children }: { children: ReactNode }) {
  const router = useRef<Router>({ handlers: new Set(), capture: { current: null } }).current
  useInput((input, key) => {
    const queue = keysOf(input, key)
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [text, k] = next
      const capture = router.capture.current
      const chars = [...text]
      if (capture) capture(text, k)
      // Typed fast or pasted, "/bob" is a command key and then what the search box takes.
      else if (chars.length > 1) queue.unshift([chars[0], k], [chars.slice(1).join(''), k])
      // A box a handler opens (a dialog, the search) captures the keys after this one; this one is not its.
      else for (const handler of [...router.handlers]) handler.current(text, k)
    }
  })
  return <Routes.Provider value={router}>{children}</Routes.Provider>
}

const useRouter = (): Router => {
  const router = useContext(Routes)
  if (!router) throw new Error('useKeys needs a KeyRouter above it')
  return router
}

/** Gives every key to `handler` from now on, before the next commit; `null` gives them back. */
export function useKeyCapture(): (handler: KeyHandler | null) => void {
  const router = useRouter()
  return useCallback(
    (handler) => {
      router.capture.current = handler
    },
    [router],
  )
}

/** Hands keys to `handler` (the latest render's) while `active`. */
export function useKeys(handler: KeyHandler, active = true): void {
  const { handlers } = useRouter()
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
