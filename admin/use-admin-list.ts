/**
 * The items an admin list operation answers, loaded when a view opens, when
 * the operator refreshes (`refresh` changes) and after the view's own changes
 * (`reload`). Failures go to the status line; the last items stay on screen.
 */
import { useCallback, useEffect, useState } from 'react'
import type { AdminClient } from './admin-client.js'
import type { Controls } from './use-controls.js'

export function useAdminList<T>(client: AdminClient, op: string, controls: Controls, refresh: number) {
  const [items, setItems] = useState<T[] | null>(null)
  const [generation, setGeneration] = useState(0)

  useEffect(() => {
    // A slower, older answer must not overwrite a newer one.
    let current = true
    controls.act(async () => {
      const answer = (await client.call(op, {})) as T[]
      if (current) setItems(answer)
    })
    return () => {
      current = false
    }
  }, [client, op, controls, refresh, generation])

  const reload = useCallback(() => setGeneration((n) => n + 1), [])
  return { items, reload }
}
