/**
 * Starting a conversation (or continuing the one with exactly these people):
 * usernames, then the message, sent to channel `pm`; the server finds or
 * makes the group's channel, and the conversation opens.
 */
import { useId, useState } from 'react'
import { useLocation } from 'wouter'
import { api } from '../api/client'
import type { Message } from '../../../api'
import { paths } from '../paths'
import { markRead } from './pm'
import { SendBox } from './send-box'

/** "@bob, carol dave" → ["@bob", "@carol", "@dave"]. */
export const destinationsOf = (recipients: string): string[] =>
  recipients
    .split(/[\s,]+/)
    .map((name) => name.replace(/^@+/, ''))
    .filter(Boolean)
    .map((name) => `@${name}`)

/** `to`: a username to write to, already filled in (the message gets the focus then). */
export function NewMessage({ to, onCancel }: { to?: string; onCancel(): void }) {
  const [recipients, setRecipients] = useState(to ? `@${to}` : '')
  const [, navigate] = useLocation()
  const id = useId()

  const send = async (text: string) => {
    const destinations = destinationsOf(recipients)
    if (destinations.length === 0) throw new Error('Name at least one person to write to.')
    const { data } = await api.post<Message>('/channels/pm/messages', { text, destinations })
    // Sending does not move the sender's read marker; what they wrote they have read.
    await markRead(data.channel_id, data.id).catch(() => undefined)
    navigate(paths.conversation(data.channel_id))
  }

  return (
    <section className="new-message" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>New message</h2>
      <SendBox label="Message" onSend={send} autoFocus={Boolean(to)}>
        <label htmlFor={`${id}-to`}>To</label>
        <input
          id={`${id}-to`}
          value={recipients}
          autoFocus={!to}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="@username, @another"
          aria-describedby={`${id}-to-hint`}
          onChange={(e) => setRecipients(e.target.value)}
        />
        <span id={`${id}-to-hint`} className="hint">
          One or more usernames, separated by spaces or commas.
        </span>
      </SendBox>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </section>
  )
}
