/**
 * Lines of JSON over a chunked HTTP answer, `\r\n` after each, as both
 * kinds of stream send them: a write waits while the socket's buffer is
 * full, and each line is flushed through hapi's gzip at once.
 */
import { once } from 'node:events'
import type { PassThrough } from 'node:stream'
import type { Zlib } from 'node:zlib'

export class ChunkedLines {
  private compressor: Zlib | null = null

  constructor(private readonly out: PassThrough) {
    // hapi gzips a stream for clients that accept it (Python's requests does) and hands its compressor
    // to a payload that asks for it: each line is flushed through at once instead of waiting for a full block.
    Object.assign(out, { setCompressor: (compressor: Zlib) => (this.compressor = compressor) })
  }

  async write(line: string): Promise<void> {
    this.put(line)
    await this.drained()
  }

  /** Writes a line without waiting for the socket's buffer. */
  put(line: string): void {
    this.out.write(`${line}\r\n`)
    this.flush()
  }

  /** Null when the buffer has room; otherwise settles once it has (or the answer closed). */
  drained(): Promise<void> | null {
    if (!this.out.writableNeedDrain || this.out.destroyed) return null
    return Promise.race([once(this.out, 'drain'), once(this.out, 'close')]).then(() => undefined)
  }

  /** A blank line: keeps an idle connection open through proxies. */
  ping(): void {
    this.out.write('\r\n')
    this.flush()
  }

  end(line: string | null): void {
    this.out.end(line === null ? undefined : `${line}\r\n`)
  }

  private flush(): void {
    // The line reaches the compressor on the next tick, through hapi's pipe.
    if (this.compressor) setImmediate(() => this.compressor?.flush())
  }
}
