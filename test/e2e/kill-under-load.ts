/**
 * kill -9 in the middle of concurrent writes: `workers` loops each send
 * writes to a served svc until `killAfter` are acknowledged, then the server
 * is killed while the other workers' writes are still in flight. A write
 * that fails after the kill is not acknowledged; one that fails before it
 * fails the test. Answers what was acknowledged and how many were sent.
 */
import type { Serving } from '../fixtures/svc-process.js'

/** One write: resolves with what proves it was acknowledged, rejects otherwise. */
export type Write<T> = (n: number) => Promise<T>

export async function killUnderLoad<T>(server: Serving, workers: number, killAfter: number, write: Write<T>): Promise<{ acknowledged: T[]; sent: number }> {
  const acknowledged: T[] = []
  let sent = 0
  let killed = false
  const worker = async () => {
    while (!killed) {
      let ack: T
      try {
        ack = await write(sent++)
      } catch (err) {
        if (!killed) throw err
        return
      }
      acknowledged.push(ack)
      if (acknowledged.length >= killAfter && !killed) {
        killed = true
        // The other workers' writes are still arriving or being stored: the crash lands among them.
        server.child.kill('SIGKILL')
      }
    }
  }
  const exited = new Promise((resolve) => server.child.once('exit', resolve))
  await Promise.all(Array.from({ length: workers }, worker))
  await exited
  return { acknowledged, sent }
}
