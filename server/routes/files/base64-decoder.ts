/**
 * Decodes a part sent with `Content-Transfer-Encoding: base64` (busboy hands
 * such parts over as sent). Node's `Buffer.from(text, 'base64')` does the
 * decoding; what is left here is cutting the text at whole 4-character
 * groups, since a chunk may end in the middle of one.
 */
import { Transform } from 'node:stream'

export function base64Decoder(): Transform {
  let rest = ''
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      // Line breaks (and anything else outside the alphabet) would throw off the grouping.
      const text = rest + chunk.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, '')
      const whole = text.length - (text.length % 4)
      rest = text.slice(whole)
      done(null, whole > 0 ? Buffer.from(text.slice(0, whole), 'base64') : undefined)
    },
    flush(done) {
      done(null, rest ? Buffer.from(rest, 'base64') : undefined)
    },
  })
}
