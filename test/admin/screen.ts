/**
 * The console's screen in a test: ink-testing-library's render, keys by
 * name, and waiting until the screen shows something (Ink draws after React
 * commits, so a key's effect is not on screen at once).
 */
import { render } from 'ink-testing-library'
import type { ReactElement } from 'react'
import { setTimeout as sleep } from 'node:timers/promises'
import { stripVTControlCharacters } from 'node:util'

export const keys = {
  tab: '\t',
  up: '\u001B[A',
  down: '\u001B[B',
  right: '\u001B[C',
  left: '\u001B[D',
  enter: '\r',
  escape: '\u001B',
} as const

/** How long a screen may take to show what a test waits for before the test fails. */
const PATIENCE_MS = 10_000

export interface Screen {
  /** The last frame drawn, without colours. */
  frame(): string
  press(...input: string[]): void
  /** Resolves with the frame once `check` holds for it; rejects (showing the frame) when it never does. */
  until(check: string | RegExp | ((frame: string) => boolean)): Promise<string>
  /** Whether the app still reads keys (an app that exited does not). */
  reading(): boolean
  unmount(): void
}

/** Renders `tree` on a terminal of `columns` (ink-testing-library's is 100 wide). */
export function screen(tree: ReactElement, options: { columns?: number } = {}): Screen {
  const ink = render(tree)
  if (options.columns !== undefined) {
    Object.defineProperty(ink.stdout, 'columns', { get: () => options.columns })
    // Ink lays the screen out again on a resize.
    ink.stdout.emit('resize')
  }
  const frame = () => stripVTControlCharacters(ink.lastFrame() ?? '')
  return {
    frame,
    press: (...input) => input.forEach((i) => ink.stdin.write(i)),
    async until(check) {
      const holds = typeof check === 'function' ? check : (f: string) => (typeof check === 'string' ? f.includes(check) : check.test(f))
      const deadline = Date.now() + PATIENCE_MS
      while (!holds(frame())) {
        if (Date.now() > deadline) throw new Error(`the screen never showed ${String(check)}; it shows:\n${frame()}`)
        await sleep(10)
      }
      return frame()
    },
    reading: () => ink.stdin.listenerCount('readable') > 0,
    unmount: () => {
      ink.unmount()
      ink.cleanup()
    },
  }
}

/** The lines of a frame wider than `columns` (none, on a screen that fits). */
export const overflowing = (frame: string, columns: number): string[] => frame.split('\n').filter((l) => [...l].length > columns)

/** The selected line of a frame (the table marks it with ›). */
export const selectedLine = (frame: string): string | undefined => frame.split('\n').find((l) => l.startsWith('› '))
