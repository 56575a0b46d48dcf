import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';

const require = createRequire(import.meta.url);
const loadNodemailer = () => require('nodemailer') as typeof Nodemailer;

/**
 * The outbox's transport, made at its first message: nodemailer is required then, not at start-up
 * (a few MB resident that a site without SMTP may never use).
 */
function lazyTransport(make: (nodemailer: typeof Nodemailer) => Transporter) {
  let transport: Transporter | undefined;
  return {
    get: () => (transport ??= make(loadNodemailer())),
    close: () => transport?.close(),
  };
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
}

/** Sends e-mail. Behind an interface so services never touch nodemailer directly. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * `SMTP_URL` set: nodemailer over SMTP. Unset: each message is written as an `.eml` file to
 * `DATA_DIR/outbox/`, so a developer can open reset mails without any mail server.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; outboxDir: string }): Mailer {
  if (options.smtpUrl) {
    // Made at start-up: an SMTP_URL nodemailer cannot read (a password with a bare `%`) stops the
    // start instead of failing every reset mail later.
    const transport = loadNodemailer().createTransport(options.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: options.from, ...message });
      },
      close: () => transport.close(),
    };
  }
  const transport = lazyTransport((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  // Written beside the outbox, then moved in: whoever watches the outbox (a developer, a test) never
  // reads a message half-written (it was seen empty once, between the file's creation and its write).
  const partialDir = path.join(path.dirname(options.outboxDir), `.${path.basename(options.outboxDir)}-partial`);
  return {
    async send(message) {
      const info = await transport.get().sendMail({ from: options.from, ...message });
      await Promise.all([fs.mkdir(options.outboxDir, { recursive: true }), fs.mkdir(partialDir, { recursive: true })]);
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}.eml`;
      await fs.writeFile(path.join(partialDir, name), info.message as Buffer);
      await fs.rename(path.join(partialDir, name), path.join(options.outboxDir, name));
    },
    close: transport.close,
  };
}
