/** A post's photos full size over the page (Radix Dialog): arrows go to the next and previous, Escape closes, the alt text under each. */
import * as Dialog from '@radix-ui/react-dialog'
import { useRef } from 'react'
import { ChevronLeft, ChevronRight, X } from 'lucide-react'
import type { Photo } from './photos'

interface PhotoLightboxProps {
  photos: Photo[]
  index: number
  onIndex(index: number): void
  onClose(): void
  /** Where the focus goes back to once it closed (there is no Radix trigger to return to). */
  onClosed(): void
}

export default function PhotoLightbox({ photos, index, onIndex, onClose, onClosed }: PhotoLightboxProps) {
  const content = useRef<HTMLDivElement>(null)
  const photo = photos[index]
  const many = photos.length > 1
  const go = (step: number) => onIndex((index + step + photos.length) % photos.length)
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="lightbox-overlay" />
        <Dialog.Content
          className="lightbox"
          ref={content}
          // The dialog itself takes the focus, not its first button ("Previous photo" would be a surprise under Enter).
          onOpenAutoFocus={(e) => {
            e.preventDefault()
            content.current?.focus()
          }}
          onCloseAutoFocus={(e) => {
            e.preventDefault()
            onClosed()
          }}
          onKeyDown={(e) => {
            if (!many) return
            if (e.key === 'ArrowRight') go(1)
            else if (e.key === 'ArrowLeft') go(-1)
            else return
            e.preventDefault()
          }}
        >
          <Dialog.Title className="visually-hidden">{many ? `Photo ${index + 1} of ${photos.length}` : 'Photo'}</Dialog.Title>
          <figure>
            <img src={photo.url} alt={photo.alt} />
            <Dialog.Description asChild>
              <figcaption>{photo.described ? photo.alt : 'No description of this photo.'}</figcaption>
            </Dialog.Description>
          </figure>
          {many && (
            <>
              <button type="button" className="icon-button previous" onClick={() => go(-1)}>
                <ChevronLeft />
                <span className="visually-hidden">Previous photo</span>
              </button>
              <button type="button" className="icon-button next" onClick={() => go(1)}>
                <ChevronRight />
                <span className="visually-hidden">Next photo</span>
              </button>
            </>
          )}
          <Dialog.Close className="icon-button close">
            <X />
            <span className="visually-hidden">Close</span>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
