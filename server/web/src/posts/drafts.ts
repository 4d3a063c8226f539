/**
 * What someone was writing, kept per view while they look elsewhere: the
 * text in sessionStorage (it survives a reload of the tab), the chosen
 * photos in memory (files cannot be stored; their previews stay alive until
 * the draft is sent or dropped).
 */
import type { ChosenPhoto } from './photo-upload'

const photos = new Map<string, ChosenPhoto[]>()
const storageKey = (key: string) => `svc.draft.${key}`

export interface Draft {
  text: string | null
  photos: ChosenPhoto[]
}

export function readDraft(key: string): Draft {
  let text: string | null = null
  try {
    text = sessionStorage.getItem(storageKey(key))
  } catch {
    // Storage refused (private mode, full): the draft lives as long as the view.
  }
  return { text, photos: photos.get(key) ?? [] }
}

export function saveDraft(key: string, draft: { text: string; photos: ChosenPhoto[] }): void {
  try {
    if (draft.text) sessionStorage.setItem(storageKey(key), draft.text)
    else sessionStorage.removeItem(storageKey(key))
  } catch {
    // As above: kept in the view only.
  }
  if (draft.photos.length) photos.set(key, draft.photos)
  else photos.delete(key)
}

/** Forgets the draft and frees its photos' previews. */
export function clearDraft(key: string): void {
  for (const photo of photos.get(key) ?? []) URL.revokeObjectURL(photo.preview)
  saveDraft(key, { text: '', photos: [] })
}
