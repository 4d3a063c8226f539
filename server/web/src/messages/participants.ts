/** The people in conversations, read once per page load: channels name their members by id only. */
import { useEffect, useState } from 'react'
import { api } from '../api/client'
import type { User } from '../../../api'

const known = new Map<string, User>()

/** Remembers users the API already answered in full (a message's author, a channel's owner). */
export function remember(users: (User | undefined)[]): void {
  for (const user of users) if (user) known.set(user.id, user)
}

/**
 * The users of `ids` (a stable, comma-joined key of ids) as far as they are
 * known; unknown ones are fetched, at most 200 a call as the API allows.
 * Answers the error message when they cannot be read.
 */
export function useUsers(idKey: string): { users: Map<string, User>; error: string | null } {
  const [, setVersion] = useState(0)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    const missing = idKey.split(',').filter((id) => id && !known.has(id))
    if (missing.length === 0) return
    let cancelled = false
    const batches: string[][] = []
    for (let i = 0; i < missing.length; i += 200) batches.push(missing.slice(i, i + 200))
    Promise.all(batches.map((ids) => api.get<User[]>('/users', { ids: ids.join(',') })))
      .then((answers) => {
        for (const a of answers) remember(a.data)
        if (!cancelled) setVersion((v) => v + 1)
      })
      .catch((err: unknown) => !cancelled && setError(err instanceof Error ? err.message : 'People could not be loaded.'))
    return () => {
      cancelled = true
    }
  }, [idKey])
  return { users: known, error }
}

/** "Alice and Bob", "Alice, Bob and Carol": how a conversation is named. */
export function namesOf(users: User[]): string {
  const names = users.map((u) => u.name || `@${u.username}`)
  if (names.length <= 1) return names[0] ?? 'Nobody'
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
}
