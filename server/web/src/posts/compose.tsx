/**
 * Writing a post (or a reply): what is left of the 256 characters, a
 * preview that shows mentions, hashtags and links as they will be
 * recognised, and photos with their alt text (attached, dropped or pasted).
 * What is being written is kept per view (drafts.ts) while the person looks
 * elsewhere.
 */
import { useEffect, useId, useRef, useState } from 'react'
import { api, ApiError } from '../api/client'
import type { Post } from '../../../api'
import { clearDraft, readDraft, saveDraft } from './drafts'
import { highlight } from './highlight'
import { AttachButton, PhotoPreviews, withPhotos } from './photo-picker'
import { photoAnnotation, uploadPhoto, type ChosenPhoto } from './photo-upload'
import { ErrorLine } from '../ui/error-line'

export const POST_MAX_LENGTH = 256
/** Below this many characters left the counter turns to a warning. */
const NEARLY_FULL = 20

const hasFiles = (data: DataTransfer | null) => Boolean(data && Array.from(data.types).includes('Files'))

export function Compose({
  replyTo,
  onPosted,
  onCancel,
  autoFocus = false,
}: {
  replyTo?: Post
  onPosted(post: Post): void
  onCancel?(): void
  autoFocus?: boolean
}) {
  const [draftKey] = useState(() => (replyTo ? `reply.${replyTo.id}` : `post.${location.pathname}`))
  const [draft] = useState(() => readDraft(draftKey))
  const [text, setText] = useState(draft.text ?? (replyTo?.user ? `@${replyTo.user.username} ` : ''))
  const [photos, setPhotos] = useState<ChosenPhoto[]>(draft.photos)
  const [error, setError] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  const [dragging, setDragging] = useState(false)
  const area = useRef<HTMLTextAreaElement>(null)
  const id = useId()
  const left = POST_MAX_LENGTH - Array.from(text).length
  useEffect(() => {
    if (!autoFocus && !replyTo) return
    area.current?.focus()
    area.current?.setSelectionRange(text.length, text.length)
  }, [])
  useEffect(() => saveDraft(draftKey, { text, photos }), [draftKey, text, photos])

  const empty = text.trim() === '' && photos.length === 0
  const send = async () => {
    if (sending || left < 0 || empty) return
    setSending(true)
    setError(null)
    try {
      const files = await Promise.all(photos.map((p) => uploadPhoto(p.file)))
      const annotations = files.map((file, i) => photoAnnotation(file, photos[i].alt))
      const body = { text, ...(replyTo ? { reply_to: replyTo.id } : {}), ...(annotations.length ? { annotations } : {}) }
      const { data } = await api.post<Post>('/posts', body, { include_post_annotations: 1 })
      clearDraft(draftKey)
      setText('')
      setPhotos([])
      onPosted(data)
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The post was not sent.')
    } finally {
      setSending(false)
    }
  }
  const cancel = () => {
    clearDraft(draftKey)
    onCancel?.()
  }
  const counter = left < 0 ? 'counter over' : left < NEARLY_FULL ? 'counter nearly' : 'counter'

  return (
    <form
      className={dragging ? 'compose dragging' : 'compose'}
      onSubmit={(e) => {
        e.preventDefault()
        void send()
      }}
      onDragOver={(e) => {
        if (!hasFiles(e.dataTransfer)) return
        e.preventDefault()
        setDragging(true)
      }}
      onDragLeave={(e) => {
        // Moving over the form's own fields is no leaving.
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false)
      }}
      onDrop={(e) => {
        if (!hasFiles(e.dataTransfer)) return
        e.preventDefault()
        setDragging(false)
        if (!sending) setPhotos(withPhotos(photos, e.dataTransfer.files))
      }}
      onPaste={(e) => {
        const images = Array.from(e.clipboardData.files).filter((f) => f.type.startsWith('image/'))
        if (images.length === 0 || sending) return
        e.preventDefault()
        setPhotos(withPhotos(photos, images))
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {replyTo?.user ? `Reply to @${replyTo.user.username}` : 'What is happening?'}
      </label>
      <textarea
        id={id}
        ref={area}
        value={text}
        rows={3}
        placeholder={replyTo ? 'Write your reply' : 'What is happening?'}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) void send()
          if (e.key === 'Escape' && onCancel) cancel()
        }}
      />
      {text && (
        <p className="preview" aria-label="Preview">
          {highlight(text)}
        </p>
      )}
      <PhotoPreviews photos={photos} onChange={setPhotos} disabled={sending} />
      <div className="compose-bar">
        <AttachButton photos={photos} onChange={setPhotos} disabled={sending} />
        <span className={counter} aria-live="polite">
          {left}
          <span className="visually-hidden"> characters left</span>
        </span>
        {onCancel && (
          <button type="button" onClick={cancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="primary" disabled={sending || left < 0 || empty}>
          {replyTo ? 'Reply' : 'Post'}
        </button>
      </div>
      <ErrorLine message={error} />
    </form>
  )
}
