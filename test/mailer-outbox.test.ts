import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer } from '../src/server/adapters/mailer';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the outbox without SMTP_URL', () => {
  it('only ever holds whole messages: a reader watching it never sees one half-written', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-outbox-'));
    const outbox = path.join(dir, 'outbox');
    const mailer = createMailer({ smtpUrl: undefined, from: 'RP Servers <noreply@example.test>', outboxDir: outbox });
    // Large enough that writing one takes more than one write call.
    const body = `${'x'.repeat(70)}\n`.repeat(3000);
    let sending = true;
    const seen: string[] = [];
    // Reads every file as soon as it shows, while the messages are written.
    const watch = (async () => {
      while (sending) {
        for (const file of fs.existsSync(outbox) ? fs.readdirSync(outbox) : []) seen.push(fs.readFileSync(path.join(outbox, file), 'utf8'));
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => mailer.send({ to: `player${i}@example.test`, subject: `Message ${i}`, text: body })),
    );
    sending = false;
    await watch;
    mailer.close();
    const files = fs.readdirSync(outbox);
    expect(files).toHaveLength(20);
    expect(files.every((file) => file.endsWith('.eml'))).toBe(true);
    expect(seen.length).toBeGreaterThan(0);
    for (const raw of seen) {
      expect(raw).toMatch(/^Subject: Message \d+$/m);
      expect(raw.length).toBeGreaterThan(body.length);
    }
  });
});

describe('closing the mailer', () => {
  it('waits for a message sent without waiting, so a shutdown leaves it whole in the outbox', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-outbox-'));
    const outbox = path.join(dir, 'outbox');
    const mailer = createMailer({ smtpUrl: undefined, from: 'RP Servers <noreply@example.test>', outboxDir: outbox });
    // As a service sends a confirmation: not awaited by the request.
    const sent = mailer.send({ to: 'player@example.test', subject: 'Confirm', text: `${'y'.repeat(70)}\n`.repeat(3000) });
    await mailer.close();
    expect(fs.readdirSync(outbox)).toHaveLength(1);
    expect(fs.readdirSync(path.join(dir, '.outbox-partial'))).toEqual([]);
    await sent;
  });

  it('gives up waiting after its bound when the SMTP server never answers', async () => {
    // Accepts the connection and says nothing: nodemailer waits for a greeting far longer.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const mailer = createMailer({
        smtpUrl: `smtp://127.0.0.1:${port}`,
        from: 'RP Servers <noreply@example.test>',
        outboxDir: '/nonexistent',
        closeWaitMs: 300,
      });
      const sent = mailer.send({ to: 'player@example.test', subject: 'Hello', text: 'Hello' }).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(sockets).toHaveLength(1);
      const started = Date.now();
      await mailer.close();
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(250);
      expect(waited).toBeLessThan(5000);
      for (const socket of sockets) socket.destroy();
      expect(await sent).toBeInstanceOf(Error);
    } finally {
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('an SMTP_URL', () => {
  it('that nodemailer cannot read stops the start, not each message later', () => {
    // The config's URL check lets a bare `%` in the password through; nodemailer does not.
    const options = {
      smtpUrl: 'smtp://user:p%ZZ@mail.example.test:587',
      from: 'RP Servers <noreply@example.test>',
      outboxDir: '/nonexistent',
    };
    expect(() => createMailer(options)).toThrow(/URI malformed/);
  });
});
