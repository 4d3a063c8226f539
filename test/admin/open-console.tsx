/** The console opened on a fake instance (fake-instance.ts), unmounted when the test ends. */
import { Console } from '../../admin/console.js'
import { fakeInstance } from './fake-instance.js'
import { screen } from '../fixtures/screen.js'

export function openConsole(t: { teardown(fn: () => unknown): void }, options: { columns?: number } = {}) {
  const instance = fakeInstance()
  const ui = screen(<Console client={instance.client} />, options)
  t.teardown(() => ui.unmount())
  return { ...instance, ui }
}
