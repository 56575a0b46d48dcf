import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
// http_ece is what web-push encrypts with; here it decrypts what arrived.
import ece from 'http_ece';
import { GuardedHttpsAgent } from '../../src/server/adapters/guarded-http';

export interface FakeSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** Decrypted payloads this subscription received, in order. */
  received: unknown[];
}

/**
 * A local HTTPS push service with a self-signed certificate. Each fake subscription has its own
 * key pair, so the test decrypts exactly what web-push sent (aes128gcm, RFC 8291).
 */
export async function startPushEndpoint() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-push-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const key = fs.readFileSync(path.join(dir, 'key.pem'));
  const cert = fs.readFileSync(path.join(dir, 'cert.pem'));
  const subscriptions = new Map<string, { ecdh: crypto.ECDH; auth: Buffer; sub: FakeSubscription; status: number }>();
  const requests: Array<{ id: string; headers: Record<string, string | string[] | undefined> }> = [];
  let onDelivery: ((count: number) => void) | undefined;

  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = (req.url ?? '').replace('/push/', '');
      const entry = subscriptions.get(id);
      requests.push({ id, headers: req.headers });
      if (!entry) {
        res.writeHead(404).end();
        return;
      }
      if (entry.status >= 400) {
        res.writeHead(entry.status).end();
        return;
      }
      const plain = ece.decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: entry.ecdh, authSecret: entry.auth });
      entry.sub.received.push(JSON.parse(plain.toString('utf8')));
      res.writeHead(201).end();
      onDelivery?.(requests.length);
    });
  });
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    host: `127.0.0.1:${port}`,
    /** Trusts this endpoint's certificate and lets the address guard through to exactly this ip:port. */
    agent: new GuardedHttpsAgent({ allowTargets: [`127.0.0.1:${port}`] }, { ca: cert }),
    /** The certificate, for tests that build their own agent. */
    cert,
    requests,
    /** TCP connections the endpoint accepted, answered or not. */
    connections: () => connections,
    /** A browser's subscription; `status` 410 makes the service answer "gone". */
    subscription(status = 201): FakeSubscription {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = crypto.randomBytes(16);
      const id = crypto.randomBytes(8).toString('hex');
      const sub: FakeSubscription = {
        endpoint: `https://127.0.0.1:${port}/push/${id}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        received: [],
      };
      subscriptions.set(id, { ecdh, auth, sub, status });
      return sub;
    },
    onDelivery(callback: (count: number) => void) {
      onDelivery = callback;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        fs.rmSync(dir, { recursive: true, force: true });
      }),
  };
}
