/**
 * Where `svc user create` takes a password from, so that it need not sit in
 * the shell history or the process list: `--password P`, else the first
 * line of standard input with `--password-stdin`, else a prompt without
 * echo when standard input is a terminal.
 */
import { createInterface } from 'node:readline/promises'
import { Writable } from 'node:stream'
import type { Io } from '../io.js'

export interface PasswordFlags {
  password?: string
  passwordStdin?: boolean
}

/** The first line of standard input, without its line ending. */
async function firstLineOfStdin(io: Io): Promise<string> {
  const lines = createInterface({ input: io.stdin, crlfDelay: Infinity })
  try {
    for await (const line of lines) return line
  } finally {
    lines.close()
  }
  throw new Error('--password-stdin: standard input is empty')
}

/**
 * Asks at the terminal. readline reads the keys in raw mode (so the terminal
 * does not echo them) and writes its own echo to `output`, here a sink; the
 * prompt itself goes to stderr, keeping stdout for the result.
 */
async function prompt(io: Io, question: string): Promise<string> {
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() })
  const rl = createInterface({ input: io.stdin, output: silent, terminal: true })
  const cancelled = new Promise<never>((_, reject) => rl.once('SIGINT', () => reject(new Error('cancelled'))))
  try {
    io.stderr.write(question)
    return await Promise.race([rl.question(''), cancelled])
  } finally {
    io.stderr.write('\n')
    rl.close()
  }
}

/** The password the flags and the terminal give; throws when there is none to be had. */
export async function passwordFrom(io: Io, flags: PasswordFlags): Promise<string> {
  if (flags.password !== undefined && flags.passwordStdin) throw new Error('give either --password or --password-stdin, not both')
  if (flags.password !== undefined) return flags.password
  if (flags.passwordStdin) return firstLineOfStdin(io)
  if (!io.stdin.isTTY) throw new Error('no password: give --password, pipe one with --password-stdin, or run at a terminal to be asked')
  const password = await prompt(io, 'password: ')
  if ((await prompt(io, 'password again: ')) !== password) throw new Error('the two passwords differ')
  return password
}
