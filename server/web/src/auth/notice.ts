/** A line for the landing page after the person left in a way it should confirm (their account deleted): kept for this tab only, shown once. */
const NOTICE_KEY = 'svc.notice'

export const leaveNotice = (text: string): void => sessionStorage.setItem(NOTICE_KEY, text)

export function takeNotice(): string | null {
  const text = sessionStorage.getItem(NOTICE_KEY)
  sessionStorage.removeItem(NOTICE_KEY)
  return text
}
