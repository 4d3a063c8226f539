/** `/interactions`: who followed the reader, starred, reposted or replied to their posts; newest first, paged back. */
import { usePagedList } from '../api/paged-list'
import type { Interaction } from '../../../api'
import { InteractionItem } from './interaction-item'
import { ErrorLine } from '../ui/error-line'
import { OlderButton } from '../ui/older-button'

export function Interactions() {
  const list = usePagedList<Interaction>('/users/me/interactions', { count: 20 })
  return (
    <section aria-labelledby="interactions-title">
      <h1 id="interactions-title">Interactions</h1>
      <ErrorLine message={list.error} />
      {!list.loading && !list.error && list.items.length === 0 && <p className="empty">Nobody has interacted with you yet.</p>}
      <ul className="interactions" aria-live="polite">
        {list.items.map((i, n) => (
          <InteractionItem key={i.pagination_id ?? `${i.action}-${i.event_date}-${n}`} interaction={i} />
        ))}
      </ul>
      {list.loading && <p className="loading">Loading…</p>}
      <OlderButton more={list.more} loading={list.loading} failed={Boolean(list.error)} onMore={list.loadMore} />
    </section>
  )
}
