/**
 * sharp, loaded on first use: its native library takes a quarter of a
 * second to load, and a server start (or any CLI command) that handles no
 * image should not wait for it.
 */
import type sharpModule from 'sharp'

let loading: Promise<typeof sharpModule> | null = null

export const loadSharp = (): Promise<typeof sharpModule> => (loading ??= import('sharp').then((m) => m.default))
