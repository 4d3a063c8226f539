/**
 * Choosing a new avatar or cover: brought within the API's limits (see
 * fit-image.ts), sent at once as multipart, the new image shown from the
 * answer; a refusal shown as is.
 */
import { useId, useState } from 'react'
import { api, ApiError } from '../api/client'
import type { User, UserImage } from '../../../api'
import { fitImage, UnfitImage } from './fit-image'

export type ImageKind = 'avatar' | 'cover'

const HINTS: Record<ImageKind, string> = {
  avatar: 'Square works best; any photo is scaled down to fit.',
  cover: 'At least 960 pixels wide; a large photo is scaled down to fit.',
}

export function ImageUpload({ kind, user, onUploaded }: { kind: ImageKind; user: User; onUploaded(user: User): void }) {
  const id = useId()
  const [busy, setBusy] = useState<'scaling' | 'uploading' | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState(false)
  // The upload's answer, shown before the session has read the person again.
  const [fresh, setFresh] = useState<UserImage | null>(null)
  const image = fresh ?? (kind === 'avatar' ? user.avatar_image : user.cover_image)
  const label = kind === 'avatar' ? 'Avatar' : 'Cover image'

  const send = async (file: File) => {
    setBusy('scaling')
    setError(null)
    setDone(false)
    try {
      const fitting = await fitImage(file, kind)
      setBusy('uploading')
      const form = new FormData()
      form.append(kind, fitting)
      const { data } = await api.post<User>(`/users/me/${kind}`, form)
      setFresh(kind === 'avatar' ? data.avatar_image : data.cover_image)
      onUploaded(data)
      setDone(true)
    } catch (err) {
      setError(err instanceof ApiError || err instanceof UnfitImage ? err.message : `The ${label.toLowerCase()} was not uploaded.`)
    } finally {
      setBusy(null)
    }
  }

  return (
    <div className={`image-upload ${kind}`}>
      <img src={`${image.url}${image.url.includes('?') ? '&' : '?'}w=${kind === 'avatar' ? 192 : 960}`} alt={`Your current ${label.toLowerCase()}`} />
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="file"
        accept="image/png,image/jpeg,image/gif,image/webp"
        aria-describedby={`${id}-hint`}
        disabled={busy !== null}
        onChange={(e) => {
          const file = e.target.files?.[0]
          e.target.value = ''
          if (file) void send(file)
        }}
      />
      <p id={`${id}-hint`} className="hint">
        {HINTS[kind]}
      </p>
      <p aria-live="polite" className={error ? 'error' : 'status'}>
        {busy === 'scaling' ? 'Scaling…' : busy === 'uploading' ? 'Uploading…' : error ? error : done ? `${label} changed.` : ''}
      </p>
    </div>
  )
}
