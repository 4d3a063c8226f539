/** Choosing photos for a post: a labelled file input, each photo previewed with its alt text and a way to take it out. */
import { useId } from 'react'
import type { ChosenPhoto } from './photo-upload'

export const MAX_PHOTOS = 4

interface PhotoPickerProps {
  photos: ChosenPhoto[]
  onChange(photos: ChosenPhoto[]): void
  disabled?: boolean
}

export function PhotoPicker({ photos, onChange, disabled = false }: PhotoPickerProps) {
  const id = useId()
  const add = (files: FileList | null) => {
    const chosen = Array.from(files ?? [])
      .filter((f) => f.type.startsWith('image/'))
      .slice(0, MAX_PHOTOS - photos.length)
      .map((file) => ({ key: crypto.randomUUID(), file, preview: URL.createObjectURL(file), alt: '' }))
    onChange([...photos, ...chosen])
  }
  const drop = (photo: ChosenPhoto) => {
    URL.revokeObjectURL(photo.preview)
    onChange(photos.filter((p) => p.key !== photo.key))
  }
  return (
    <div className="photo-picker">
      {photos.length < MAX_PHOTOS && (
        <>
          <label htmlFor={id} className="file-label">
            Add photos
          </label>
          <input
            id={id}
            type="file"
            accept="image/*"
            multiple
            disabled={disabled}
            className="file-input"
            onChange={(e) => {
              add(e.target.files)
              e.target.value = ''
            }}
          />
        </>
      )}
      {photos.length > 0 && (
        <ul className="chosen-photos" aria-label="Photos to attach">
          {photos.map((photo, i) => (
            <li key={photo.key}>
              <img src={photo.preview} alt={photo.alt || `Photo ${i + 1}, no description yet`} />
              <label>
                <span>Description of photo {i + 1} (alt text)</span>
                <input
                  type="text"
                  value={photo.alt}
                  maxLength={200}
                  onChange={(e) => onChange(photos.map((p) => (p.key === photo.key ? { ...p, alt: e.target.value } : p)))}
                />
              </label>
              <button type="button" onClick={() => drop(photo)} disabled={disabled}>
                Remove photo {i + 1}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
