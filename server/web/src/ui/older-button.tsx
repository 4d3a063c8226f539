/** "Older" under a list that has more: pages back on a click. */
export function OlderButton({ more, loading, onMore, label = 'Older' }: { more: boolean; loading?: boolean; onMore(): unknown; label?: string }) {
  if (!more || loading) return null
  return (
    <button type="button" className="more" onClick={() => void onMore()}>
      {label}
    </button>
  )
}
