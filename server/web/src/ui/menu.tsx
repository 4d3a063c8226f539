/**
 * A dropdown menu (Radix): its trigger button and a list of entries, each a
 * link or an action. Loaded on first use (lazy-menu.tsx), so Radix stays out
 * of the first load.
 */
import * as Radix from '@radix-ui/react-dropdown-menu'
import type { ReactNode } from 'react'
import { Link } from 'wouter'

export interface MenuEntry {
  label: string
  icon: ReactNode
  href?: string
  onSelect?(): void
  disabled?: boolean
  danger?: boolean
  /** For the tests and the styles: `data-action` of the entry. */
  action?: string
}

export interface MenuProps {
  /** What the trigger button holds: an icon and its name (visually hidden or not). */
  trigger: ReactNode
  triggerClass: string
  triggerAction?: string
  entries: MenuEntry[]
  side?: 'top' | 'bottom'
  defaultOpen?: boolean
}

export default function Menu({ trigger, triggerClass, triggerAction, entries, side = 'bottom', defaultOpen = false }: MenuProps) {
  return (
    <Radix.Root modal={false} defaultOpen={defaultOpen}>
      <Radix.Trigger className={triggerClass} data-action={triggerAction}>
        {trigger}
      </Radix.Trigger>
      <Radix.Portal>
        <Radix.Content className="menu" side={side} align="end" sideOffset={4}>
          {entries.map((entry) => {
            const inside = (
              <>
                {entry.icon}
                {entry.label}
              </>
            )
            const common = { disabled: entry.disabled, className: entry.danger ? 'danger' : undefined, 'data-action': entry.action }
            return entry.href ? (
              <Radix.Item key={entry.label} asChild {...common}>
                <Link href={entry.href}>{inside}</Link>
              </Radix.Item>
            ) : (
              <Radix.Item key={entry.label} onSelect={entry.onSelect} {...common}>
                {inside}
              </Radix.Item>
            )
          })}
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  )
}
