/** "Message" on someone's profile: opens the reader's conversation with them, or a new message to them when there is none yet. */
import { useState } from 'react'
import { useLocation } from 'wouter'
import type { User } from '../../../api'
import { ApiError } from '../api/client'
import { conversationWith } from '../messages/conversation-with'
import { paths } from '../paths'
import { ErrorLine } from '../ui/error-line'

export function MessageButton({ user, meId }: { user: User; meId: string }) {
  const [, navigate] = useLocation()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const open = async () => {
    setBusy(true)
    setError(null)
    try {
      const channelId = await conversationWith(user.id, meId)
      navigate(channelId ? paths.conversation(channelId) : paths.messageTo(user.username))
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Your conversations could not be read.')
      setBusy(false)
    }
  }

  return (
    <>
      <button type="button" className="message-button" aria-busy={busy} onClick={() => !busy && void open()}>
        Message @{user.username}
      </button>
      <ErrorLine message={error} />
    </>
  )
}
