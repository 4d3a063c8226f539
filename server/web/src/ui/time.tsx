/** "5m", "3h", "Nov 2": how long ago, with the exact time on hover; it moves on as time passes (see use-now.ts). */
import { useNow } from './use-now'

export function TimeAgo({ iso }: { iso: string }) {
  const now = useNow()
  const date = new Date(iso)
  const seconds = Math.max(0, (now - date.getTime()) / 1000)
  const text =
    seconds < 60
      ? 'now'
      : seconds < 3600
        ? `${Math.floor(seconds / 60)}m`
        : seconds < 86400
          ? `${Math.floor(seconds / 3600)}h`
          : date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })
  return (
    <time dateTime={iso} title={date.toLocaleString()}>
      {text}
    </time>
  )
}
