/**
 * The tab's title: the screen and the instance ("Home · Tea House"), with the
 * count of unread notifications before it ("(3) Home · Tea House").
 */
import { useEffect } from 'react'
import { useLocation } from 'wouter'
import { settings } from '../settings'

/** The title of a screen that does not set its own (those with `useTitle`), by its address. */
const SCREENS: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^\/home$/, () => 'Home'],
  [/^\/mentions$/, () => 'Mentions'],
  [/^\/interactions$/, () => 'Interactions'],
  [/^\/global$/, () => 'Global'],
  [/^\/explore\/tag\/([^/]+)$/, (m) => `#${decodeURIComponent(m[1])}`],
  [/^\/explore(\/[^/]+)?$/, () => 'Explore'],
  [/^\/messages(\/[^/]+)?$/, () => 'Messages'],
  [/^\/people\/([^/]+)(\/followers|\/following)?$/, (m) => `@${decodeURIComponent(m[1])}`],
  [/^\/thread\/[^/]+$/, () => 'Post'],
  [/^\/settings$/, () => 'Settings'],
]

/** Names the screen at the current address in the tab's title, where the screen does not itself. */
export function useScreenTitle(): void {
  const [location] = useLocation()
  useEffect(() => {
    for (const [pattern, name] of SCREENS) {
      const m = pattern.exec(location)
      if (m) {
        document.title = `${name(m)} · ${settings.name}`
        return
      }
    }
    if (location === '/') document.title = settings.name
  }, [location])
}

/** The tab's title while a screen is shown: "Search · Tea House"; the instance's name again when it goes. */
export function useTitle(view: string): void {
  useEffect(() => {
    document.title = `${view} · ${settings.name}`
    return () => {
      document.title = settings.name
    }
  }, [view])
}

const COUNTED = /^\(\d+\) /

/** "(3) " before whatever title a screen set, kept there when a screen changes it, while `count` is more than 0. */
export function useCountInTitle(count: number): void {
  useEffect(() => {
    const apply = () => {
      const bare = document.title.replace(COUNTED, '')
      const wanted = count > 0 ? `(${count}) ${bare}` : bare
      if (document.title !== wanted) document.title = wanted
    }
    apply()
    const observer = new MutationObserver(apply)
    const title = document.querySelector('title')
    if (title) observer.observe(title, { childList: true, characterData: true, subtree: true })
    return () => {
      observer.disconnect()
      document.title = document.title.replace(COUNTED, '')
    }
  }, [count])
}
