/** The mail port over SMTP with nodemailer, as `config.json`'s `smtp` section says. */
import nodemailer, { type Transporter } from 'nodemailer'
import type { InstanceConfig } from '../config.js'
import type { MailMessage, Mailer } from './mailer.js'

export type SmtpSettings = InstanceConfig['smtp']

/** A request waits for the mail server at most this long at each step, so a dead server costs seconds, not nodemailer's minutes. */
const TIMEOUT_MS = 10_000

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter

  constructor(private readonly settings: SmtpSettings) {
    this.transport = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      requireTLS: !settings.secure && settings.require_tls,
      ...(settings.user ? { auth: { user: settings.user, pass: settings.password } } : {}),
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: 3 * TIMEOUT_MS,
      // nodemailer logs nothing unless asked: the messages carry single-use links.
      logger: false,
    })
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.settings.from, to: message.to, subject: message.subject, text: message.text })
  }
}

/** The instance's mailer: null when `smtp.host` is empty (no mail). */
export const mailerOf = (settings: SmtpSettings): Mailer | null => (settings.host === '' ? null : new SmtpMailer(settings))
