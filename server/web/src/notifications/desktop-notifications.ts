/**
 * Desktop notifications (the browser's Notification API) while the page is
 * open: only once the person asked for them with the button, never asked
 * unprompted. A browser without them, or a page not served securely, has none.
 */
import { useCallback, useState } from 'react'

export type DesktopPermission = NotificationPermission | 'unsupported'

const supported = (): boolean => typeof Notification !== 'undefined'

export function useDesktopPermission(): { permission: DesktopPermission; ask(): Promise<void> } {
  const [permission, setPermission] = useState<DesktopPermission>(() => (supported() ? Notification.permission : 'unsupported'))
  const ask = useCallback(async () => {
    if (!supported()) return
    setPermission(await Notification.requestPermission())
  }, [])
  return { permission, ask }
}

/** Shows one notification when the person allowed them; a click brings the tab forward and calls `onOpen`. */
export function notifyDesktop(title: string, body: string, tag: string, onOpen: () => void): void {
  if (!supported() || Notification.permission !== 'granted') return
  try {
    const shown = new Notification(title, { body: body.slice(0, 200), tag })
    shown.onclick = () => {
      window.focus()
      onOpen()
      shown.close()
    }
  } catch {
    // Some browsers allow them only from a service worker: the badge and the title still say it.
  }
}
