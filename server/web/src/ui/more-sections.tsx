/** On a phone, the sections that do not fit the bottom bar: a "More" menu at its end (hidden on wide screens, where the rail lists them). */
import { Ellipsis } from 'lucide-react'
import { LazyMenu } from './lazy-menu'
import type { Section } from './layout'

export function MoreSections({ sections }: { sections: Section[] }) {
  return (
    <LazyMenu
      triggerClass="more-sections"
      side="top"
      trigger={
        <>
          <Ellipsis />
          <span className="label">More</span>
        </>
      }
      entries={sections.map((s) => ({ label: s.label, icon: s.icon, href: s.href }))}
    />
  )
}
