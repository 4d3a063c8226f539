/**
 * Choosing photos for a post: an attach button (the file input itself stays
 * hidden), and each chosen photo previewed with its alt text field and a
 * button to take it out. Dropped and pasted images join through `withPhotos`.
 */
import { useRef } from 'react'
import { ImagePlus, X } from 'lucide-react'
import type { ChosenPhoto } from './photo-upload'

export const MAX_PHOTOS = 4

/** `photos` with the images among `files` added, up to MAX_PHOTOS. */
export function withPhotos(photos: ChosenPhoto[], files: Iterable<File>): ChosenPhoto[] {
  const chosen = Array.from(files)
    .filter((f) => f.type.startsWith('image/'))
    .slice(0, Math.max(0, MAX_PHOTOS - photos.length))
    .map((file) => ({ key: crypto.randomUUID(), file, preview: URL.createObjectURL(file), alt: '' }))
  return chosen.length ? [...photos, ...chosen] : photos
}

interface PhotoPickerProps {
  photos: ChosenPhoto[]
  onChange(photos: ChosenPhoto[]): void
  disabled?: boolean
}

export function AttachButton({ photos, onChange, disabled = false }: PhotoPickerProps) {
  const input = useRef<HTMLInputElement>(null)
  const full = photos.length >= MAX_PHOTOS
  return (
    <>
      <button
        type="button"
        className="icon-button attach"
        disabled={disabled || full}
        title={full ? `${MAX_PHOTOS} photos at most` : 'Add photos'}
        onClick={() => input.current?.click()}
      >
        <ImagePlus />
        <span className="visually-hidden">Add photos</span>
      </button>
      <input
        ref={input}
        type="file"
        accept="image/*"
        multiple
        hidden
        tabIndex={-1}
        onChange={(e) => {
          onChange(withPhotos(photos, e.target.files ?? []))
          e.target.value = ''
        }}
      />
    </>
  )
}

export function PhotoPreviews({ photos, onChange, disabled = false }: PhotoPickerProps) {
  if (photos.length === 0) return null
  const drop = (photo: ChosenPhoto) => {
    URL.revokeObjectURL(photo.preview)
    onChange(photos.filter((p) => p.key !== photo.key))
  }
  return (
    <ul className="chosen-photos" aria-label="Photos to attach">
      {photos.map((photo, i) => (
        <li key={photo.key}>
          <img src={photo.preview} alt={photo.alt || `Photo ${i + 1}, no description yet`} />
          <button type="button" className="icon-button remove" onClick={() => drop(photo)} disabled={disabled}>
            <X />
            <span className="visually-hidden">Remove photo {i + 1}</span>
          </button>
          <label>
            <span>Description of photo {i + 1} (alt text)</span>
            <input
              type="text"
              value={photo.alt}
              maxLength={200}
              onChange={(e) => onChange(photos.map((p) => (p.key === photo.key ? { ...p, alt: e.target.value } : p)))}
            />
          </label>
        </li>
      ))}
    </ul>
  )
}
