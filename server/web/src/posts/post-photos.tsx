/**
 * A post's attached photos in a grid of bounded height (a tall photo is
 * cropped to its cell, never a screen high), an ALT badge on those the
 * author described; each opens the lightbox, by click or Enter.
 */
import { lazy, Suspense, useRef, useState } from 'react'
import type { Post } from '../../../api'
import { photosOf } from './photos'

// The lightbox (and Radix Dialog) loads when a photo is first opened.
const PhotoLightbox = lazy(() => import('./photo-lightbox'))

export function PostPhotos({ post }: { post: Post }) {
  const photos = photosOf(post)
  const [open, setOpen] = useState<number | null>(null)
  const buttons = useRef<(HTMLButtonElement | null)[]>([])
  const shown = useRef(0)
  const show = (index: number | null) => {
    if (index !== null) shown.current = index
    setOpen(index)
  }
  if (photos.length === 0) return null
  return (
    <>
      <div className={`photos count-${Math.min(photos.length, 4)}`}>
        {photos.map((photo, i) => (
          <button
            key={photo.url}
            type="button"
            className="photo"
            ref={(node) => {
              buttons.current[i] = node
            }}
            onClick={() => show(i)}
          >
            <span className="visually-hidden">Open the photo: </span>
            <img src={photo.thumbnail ?? photo.url} width={photo.width} height={photo.height} alt={photo.alt} loading="lazy" />
            {photo.described && (
              <span className="alt-badge" aria-hidden="true">
                ALT
              </span>
            )}
          </button>
        ))}
      </div>
      {open !== null && (
        <Suspense fallback={null}>
          <PhotoLightbox photos={photos} index={open} onIndex={show} onClose={() => show(null)} onClosed={() => buttons.current[shown.current]?.focus()} />
        </Suspense>
      )}
    </>
  )
}
