/**
 * Writing a post (or a reply): a counter of what is left of the 256
 * characters, a preview that shows mentions, hashtags and links as they
 * will be recognised, and photos with their alt text.
 */
import { useEffect, useId, useRef, useState } from 'react'
import { api, ApiError } from '../api/client'
import type { Post } from '../../../api'
import { highlight } from './highlight'
import { PhotoPicker } from './photo-picker'
import { photoAnnotation, uploadPhoto, type ChosenPhoto } from './photo-upload'
import { ErrorLine } from '../ui/error-line'

export const POST_MAX_LENGTH = 256

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
  const [text, setText] = useState(replyTo?.user ? `@${replyTo.user.username} ` : '')
  const [error, setError] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  const [photos, setPhotos] = useState<ChosenPhoto[]>([])
  const area = useRef<HTMLTextAreaElement>(null)
  const id = useId()
  const left = POST_MAX_LENGTH - Array.from(text).length
  useEffect(() => {
    if (!autoFocus && !replyTo) return
    area.current?.focus()
    area.current?.setSelectionRange(text.length, text.length)
  }, [])

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
      setText('')
      for (const p of photos) URL.revokeObjectURL(p.preview)
      setPhotos([])
      onPosted(data)
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The post was not sent.')
    } finally {
      setSending(false)
    }
  }

  return (
    <form
      className="compose"
      onSubmit={(e) => {
        e.preventDefault()
        void send()
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
          if (e.key === 'Escape') onCancel?.()
        }}
      />
      {text && (
        <p className="preview" aria-label="Preview">
          {highlight(text)}
        </p>
      )}
      <PhotoPicker photos={photos} onChange={setPhotos} disabled={sending} />
      <div className="compose-bar">
        <span className={left < 0 ? 'counter over' : 'counter'} aria-live="polite">
          {left} characters left
        </span>
        {onCancel && (
          <button type="button" onClick={onCancel}>
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
