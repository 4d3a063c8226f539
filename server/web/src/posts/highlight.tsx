/** The text being written, with what the server will take for mentions, hashtags and links marked. */
const ENTITY = /(@[A-Za-z0-9_]{1,20})|(#[\p{L}\p{N}_]+)|(https?:\/\/[^\s]+)/gu

export function highlight(text: string): React.ReactNode[] {
  const out: React.ReactNode[] = []
  let at = 0
  for (const match of text.matchAll(ENTITY)) {
    const index = match.index ?? 0
    if (index > at) out.push(text.slice(at, index))
    const kind = match[1] ? 'mention' : match[2] ? 'hashtag' : 'link'
    out.push(
      <mark key={index} className={kind}>
        {match[0]}
      </mark>,
    )
    at = index + match[0].length
  }
  if (at < text.length) out.push(text.slice(at))
  return out
}
