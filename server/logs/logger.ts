/**
 * `svc serve`'s logger (pino): one JSON object per line where the output is
 * not a terminal (the operator contract's promise, for a log collector),
 * pino-pretty's readable lines on a terminal.
 */
import { destination, pino, type DestinationStream, type Logger } from 'pino'
import pretty from 'pino-pretty'
import type { InstanceConfig } from '../../data/index.js'
import { REDACTED_PATHS } from './request-log.js'

/** Where log lines go: a stream that may be a terminal. */
export interface LogOutput {
  write(text: string): unknown
  isTTY?: boolean
}

/** The request line's fields, shown in its message on a terminal. */
const REQUEST_FIELDS = ['request_id', 'method', 'route', 'path', 'status', 'duration_ms', 'user_id', 'app', 'error_id']

const requestLine = (log: Record<string, unknown>): string =>
  [
    `${String(log.method)} ${String(log.path)} ${String(log.status)} ${String(log.duration_ms)} ms`,
    log.user_id ? `user ${String(log.user_id)}` : '',
    log.error_id ? `error_id ${String(log.error_id)}` : '',
  ]
    .filter(Boolean)
    .join('  ')

export function makeLogger(output: LogOutput, level: InstanceConfig['log_level']): Logger {
  // A reader of the log that goes away (`svc serve | head`, a collector restarting) must not stop the server: the write fails, the server goes on.
  if (typeof (output as NodeJS.WritableStream).on === 'function') (output as NodeJS.WritableStream).on('error', () => undefined)
  const options = {
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  }
  if (output.isTTY)
    return pino(
      options,
      pretty({
        destination: output as NodeJS.WritableStream,
        colorize: true,
        singleLine: true,
        translateTime: 'SYS:HH:MM:ss.l',
        // A request reads as one line a person scans; its id and the rest stay in the JSON a collector gets.
        messageFormat: (log, key) => (log[key] === 'request' ? requestLine(log) : String(log[key])),
        ignore: `pid,${REQUEST_FIELDS.join(',')}`,
      }),
    )
  // The process's own stdout is written in 4 kB batches (pino's destination, flushed at exit): a line a request would be a
  // write a request. A kill -9 may lose the last few lines; no acknowledged write depends on them.
  if (output === process.stdout) return pino(options, destination({ dest: 1, minLength: 4096, sync: false }))
  return pino(options, output as DestinationStream)
}
