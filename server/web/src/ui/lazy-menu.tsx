/**
 * A dropdown menu whose code (Radix, and the positioning it brings) loads
 * when it is first wanted: a plain trigger until then, fetched as the
 * pointer or focus reaches it, opened where it was pressed.
 */
import { lazy, Suspense, useState } from 'react'
import type { MenuProps } from './menu'

const load = () => import('./menu')
const Menu = lazy(load)
let loaded = false

function PlainTrigger({ trigger, triggerClass, triggerAction, onPress }: MenuProps & { onPress?(): void }) {
  return (
    <button
      type="button"
      className={triggerClass}
      data-action={triggerAction}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={() => void load()}
      onFocus={() => void load()}
      onClick={onPress}
    >
      {trigger}
    </button>
  )
}

export function LazyMenu(props: MenuProps) {
  const [pressed, setPressed] = useState(false)
  if (!loaded && !pressed)
    return (
      <PlainTrigger
        {...props}
        onPress={() => {
          loaded = true
          setPressed(true)
        }}
      />
    )
  return (
    <Suspense fallback={<PlainTrigger {...props} />}>
      <Menu {...props} defaultOpen={pressed} />
    </Suspense>
  )
}
