import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A local HTTPS webhook receiver with a self-signed certificate; answers each request with the next planned status. */
export async function startWebhookReceiver() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-hook-'));
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
  const cert = fs.readFileSync(path.join(dir, 'cert.pem'));
  const received: Array<{ path: string; headers: Record<string, string | string[] | undefined>; body: string }> = [];
  const plan: number[] = [];
  const server = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = plan.shift() ?? 200;
      if (status >= 300 && status < 400) res.writeHead(status, { location: 'https://127.0.0.1:1/elsewhere' }).end();
      else res.writeHead(status).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/hooks/votes`,
    target: `127.0.0.1:${port}`,
    cert,
    received,
    /** The statuses the next requests get (then 200). */
    plan,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What a Votifier receiver decoded from one vote. */
export interface ReceivedVote {
  serviceName: string;
  username: string;
  address: string;
  timestamp: number;
}

/**
 * A local Votifier listener. v2: greets with a challenge, checks the packet's magic, length,
 * HMAC-SHA256 signature (with `token`) and challenge, answers `{status}`. v1: greets, reads one
 * RSA block, decrypts it with its private key (PKCS#1 v1.5 undone by hand: Node refuses to do it
 * for decryption) and checks the `VOTE` opcode.
 */
export async function startVotifier(version: 1 | 2) {
  const token = crypto.randomBytes(16).toString('hex');
  const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const received: ReceivedVote[] = [];
  const errors: string[] = [];
  const server = net.createServer((socket) => {
    const challenge = crypto.randomBytes(12).toString('hex');
    socket.write(version === 2 ? `VOTIFIER 2 ${challenge}\n` : 'VOTIFIER 1.9\n');
    let data = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (version === 1) {
        if (data.length < 256) return;
        const raw = crypto.privateDecrypt({ key: privateKey, padding: crypto.constants.RSA_NO_PADDING }, data.subarray(0, 256));
        // 0x00 0x02 <non-zero padding> 0x00 <message>
        const message = raw[0] === 0 && raw[1] === 2 ? raw.subarray(raw.indexOf(0, 2) + 1).toString('utf8') : '';
        const [opcode, serviceName, username, address, timestamp] = message.split('\n');
        if (opcode !== 'VOTE') errors.push('bad v1 block');
        else received.push({ serviceName: serviceName!, username: username!, address: address!, timestamp: Number(timestamp) });
        socket.end();
        return;
      }
      if (data.length < 4) return;
      const length = data.readUInt16BE(2);
      if (data.length < 4 + length) return;
      const answer = (status: object) => socket.end(JSON.stringify(status));
      if (data.readUInt16BE(0) !== 0x733a) return answer({ status: 'error', cause: 'BadMagic', error: 'bad magic' });
      const { payload, signature } = JSON.parse(data.subarray(4, 4 + length).toString('utf8')) as { payload: string; signature: string };
      const expected = crypto.createHmac('sha256', token).update(payload).digest('base64');
      if (signature !== expected) {
        errors.push('bad signature');
        return answer({ status: 'error', cause: 'CorruptedFrameException', error: 'Signature is not valid (invalid token?)' });
      }
      const vote = JSON.parse(payload) as ReceivedVote & { challenge: string };
      if (vote.challenge !== challenge)
        return answer({ status: 'error', cause: 'CorruptedFrameException', error: 'Challenge is not valid' });
      received.push({ serviceName: vote.serviceName, username: vote.username, address: vote.address, timestamp: vote.timestamp });
      return answer({ status: 'ok' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    target: `127.0.0.1:${port}`,
    token,
    /** The base64 X.509 key, as Votifier's public.key holds it. */
    publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    received,
    errors,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
