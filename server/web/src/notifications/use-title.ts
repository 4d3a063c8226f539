/** The tab's title while a screen is shown: "Search · Tea House"; the instance's name again when it goes. */
import { useEffect } from 'react'
import { settings } from '../settings'

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
