/**
 * Attaching photos to a post: each file is uploaded (`POST /files`), then
 * named in an `svc.core.oembed` annotation by its write token; the server
 * replaces that with the photo's oEmbed (addresses, thumbnails) when the
 * post is shown. The alt text travels as the oEmbed `title`.
 */
import { api } from '../api/client'
import type { Annotation, File as UploadedFile } from '../../../api'

/** The purpose svc's web client gives the files it uploads for posts. */
export const PHOTO_FILE_TYPE = 'svc.web.photo'

export interface ChosenPhoto {
  key: string
  file: File
  /** A blob: address for the preview (revoked when the photo is removed or sent). */
  preview: string
  alt: string
}

export async function uploadPhoto(file: File): Promise<UploadedFile> {
  const form = new FormData()
  form.append('type', PHOTO_FILE_TYPE)
  form.append('content', file, file.name || 'photo')
  const { data } = await api.post<UploadedFile>('/files', form)
  return data
}

export function photoAnnotation(file: UploadedFile, alt: string): Annotation {
  const value: Record<string, unknown> = { '+svc.core.file': { file_id: file.id, file_token: file.file_token, format: 'oembed' } }
  if (alt.trim()) value.title = alt.trim()
  return { type: 'svc.core.oembed', value }
}
