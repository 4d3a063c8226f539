/** The keyboard shortcuts of the lists of posts, in a dialog `?` opens. */
import { Dialog } from '../ui/dialog'
import { POST_SHORTCUTS } from './post-keys'

export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose(): void }) {
  return (
    <Dialog title="Keyboard shortcuts" open={open} onClose={onClose}>
      <dl className="shortcuts">
        {POST_SHORTCUTS.map(([key, what]) => (
          <div key={key}>
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <div className="dialog-bar">
        <button type="button" autoFocus onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  )
}
