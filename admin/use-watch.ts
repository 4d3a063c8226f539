/**
 * The picture of a watch topic, as the server pushes it (see the admin
 * protocol's `watch`): `null` until the first one. Failures go to the
 * status line and the last picture stays on screen; the client watches
 * again after a lost server, and its first picture clears the failure.
 */
import { useEffect, useState } from 'react'
import type { AdminClient } from './admin-client.js'
import type { Controls } from './use-controls.js'

export function useWatch<T>(client: AdminClient, topic: string, controls: Controls, refresh: number): T | null {
  const [picture, setPicture] = useState<T | null>(null)
  // `refresh` (g) watches anew: a fresh picture at once.
  useEffect(
    () =>
      client.watch(topic, {
        picture: (result) => {
          setPicture(result as T)
          controls.answered()
        },
        error: (err) => controls.failed(err),
      }),
    [client, topic, controls, refresh],
  )
  return picture
}
