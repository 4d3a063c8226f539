/**
 * Mention scanning: `@` plus a username of up to 20 `[A-Za-z0-9_]`, where the
 * `@` does not follow a word character (so `bob@example.com` is no mention),
 * or a remote account's whole handle, `@name@host` with an optional port.
 */
import type { Range } from './code-points.js'

export interface MentionMatch extends Range {
  /** The username as typed (case kept). */
  typed: string
}

// A 21st username character means the run is no username at all, not a prefix of one.
// A handle's host ends at its last label: a full stop after it ends the sentence, not the host.
const MENTION =
  /(?<![\p{L}\p{N}\p{M}_@])@((?:[A-Za-z0-9_.-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.)*[A-Za-z0-9-]{1,63}(?::\d{1,5})?(?![A-Za-z0-9_:-]))|[A-Za-z0-9_]{1,20}(?![A-Za-z0-9_]))/gu

/** Every `@name` in `text` that could be a mention, in text order. */
export function scanMentions(text: string): MentionMatch[] {
  return [...text.matchAll(MENTION)].map((m) => ({ start: m.index, end: m.index + m[0].length, typed: m[1] }))
}
