/** A post's attached photos, inline with their alt text; each opens the full image. */
import type { Post } from '../../../api'
import { photosOf } from './photos'

export function PostPhotos({ post }: { post: Post }) {
  const photos = photosOf(post)
  if (photos.length === 0) return null
  return (
    <div className="photos">
      {photos.map((photo) => (
        <a key={photo.url} href={photo.url} target="_blank" rel="noopener noreferrer" className="photo">
          <img src={photo.thumbnail ?? photo.url} width={photo.width} height={photo.height} alt={photo.alt} loading="lazy" />
          <span className="visually-hidden"> (full size)</span>
        </a>
      ))}
    </div>
  )
}
