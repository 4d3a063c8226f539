/**
 * A modal dialog on the native <dialog> element: the browser keeps focus
 * inside it, Escape closes it, and focus returns to where it was.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react'

export function Dialog({ title, open, onClose, children }: { title: string; open: boolean; onClose(): void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null)
  const id = useId()
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={id} onClose={onClose}>
      <h2 id={id}>{title}</h2>
      {children}
    </dialog>
  )
}

/** Asks before something that cannot be undone: `onConfirm` runs only on the named action. */
export function ConfirmDialog({
  title,
  action,
  open,
  onConfirm,
  onClose,
}: {
  title: string
  action: string
  open: boolean
  onConfirm(): void
  onClose(): void
}) {
  return (
    <Dialog title={title} open={open} onClose={onClose}>
      <div className="dialog-bar">
        <button type="button" autoFocus onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="primary danger-fill"
          onClick={() => {
            onConfirm()
            onClose()
          }}
        >
          {action}
        </button>
      </div>
    </Dialog>
  )
}
