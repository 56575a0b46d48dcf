import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { doneWithin } from '../lib/done-within';

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
  /** Waits for the messages being sent (up to a bound), then lets the transport go. */
  close(): void | Promise<void>;
}

/** How long closing waits for messages still being sent: a stuck SMTP server does not hold a shutdown. */
export const MAIL_CLOSE_WAIT_MS = 5000;

/**
 * A mailer whose `close` first waits for the messages it is sending. Services send some mail
 * without awaiting it (a request's answer does not wait for SMTP), so a shutdown could otherwise
 * end while a message was half-sent or still being written into the outbox.
 */
function closingAfterSends(inner: Mailer, waitMs: number): Mailer {
  const sending = new Set<Promise<void>>();
  return {
    send(message) {
      const sent = inner.send(message);
      const tracked: Promise<void> = sent.then(
        () => void sending.delete(tracked),
        () => void sending.delete(tracked),
      );
      sending.add(tracked);
      return sent;
    },
    async close() {
      if (sending.size > 0)
        await doneWithin(
          Promise.all(sending).then(() => true),
          waitMs,
        );
      await inner.close();
    },
  };
}

/**
 * `SMTP_URL` set: nodemailer over SMTP. Unset: each message is written as an `.eml` file to
 * `DATA_DIR/outbox/`, so a developer can open reset mails without any mail server.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; outboxDir: string; closeWaitMs?: number }): Mailer {
  return closingAfterSends(transportMailer(options), options.closeWaitMs ?? MAIL_CLOSE_WAIT_MS);
}

function transportMailer(options: { smtpUrl: string | undefined; from: string; outboxDir: string }): Mailer {
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
