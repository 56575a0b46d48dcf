import crypto from 'node:crypto';
import net from 'node:net';
import { resolvePublicAddress, type TargetPolicy } from './address-guard';

/** A Votifier listener as an owner configures it: v2 (NuVotifier token) or v1 (RSA public key). */
export type VotifierTarget =
  { version: 2; host: string; port: number; token: string } | { version: 1; host: string; port: number; publicKey: string };

/** What a Votifier vote says. */
export interface VotifierVote {
  serviceName: string;
  /** The in-game name the player gave. */
  username: string;
  /** The voter's address, as the protocol asks. */
  address: string;
  timestamp: number;
}

/** A listener refused or did not answer as the protocol says. */
export class VotifierError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VotifierError';
  }
}

const V2_MAGIC = 0x733a;
const MAX_GREETING = 512;

/** The RSA key a v1 owner pastes: the base64 of the listener's `public.key` (X.509 SubjectPublicKeyInfo), PEM or bare. */
export function parseVotifierKey(text: string): crypto.KeyObject {
  const bare = text.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
  const key = crypto.createPublicKey({ key: Buffer.from(bare, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'rsa') throw new VotifierError('the Votifier key must be an RSA public key');
  return key;
}

/** The v2 packet: magic, length, then `{payload, signature}` with the payload signed by HMAC-SHA256 of the token. */
export function votifierV2Packet(vote: VotifierVote, challenge: string, token: string): Buffer {
  const payload = JSON.stringify({ ...vote, challenge });
  const signature = crypto.createHmac('sha256', token).update(payload).digest('base64');
  const message = Buffer.from(JSON.stringify({ payload, signature }));
  const header = Buffer.alloc(4);
  header.writeUInt16BE(V2_MAGIC, 0);
  header.writeUInt16BE(message.length, 2);
  return Buffer.concat([header, message]);
}

/** The v1 block: the vote's lines encrypted with the listener's RSA key (PKCS#1 v1.5), one key-sized block. */
export function votifierV1Block(vote: VotifierVote, publicKey: string): Buffer {
  const lines = `VOTE\n${vote.serviceName}\n${vote.username}\n${vote.address}\n${vote.timestamp}\n`;
  return crypto.publicEncrypt({ key: parseVotifierKey(publicKey), padding: crypto.constants.RSA_PKCS1_PADDING }, Buffer.from(lines));
}

/**
 * Tells a Votifier listener of a vote: connects to the address the guard approved (no private
 * networks; the name is resolved once and the connection pinned to it), reads the greeting
 * (`VOTIFIER <version> [challenge]`), sends the vote in the configured protocol and, for v2, reads
 * the listener's `{status}` answer. One deadline covers it all.
 */
export async function sendVotifierVote(
  target: VotifierTarget,
  vote: VotifierVote,
  options: { policy?: TargetPolicy; timeoutMs: number },
): Promise<void> {
  const ip = await resolvePublicAddress(target.host, target.port, options.policy);
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect({ host: ip, port: target.port });
    let received = Buffer.alloc(0);
    let greeted = false;
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const deadline = setTimeout(
      () => finish(new VotifierError(`no answer from the Votifier listener within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    socket.on('error', (err) => finish(new VotifierError(`Votifier connection failed: ${err.message}`)));
    socket.on('close', () =>
      finish(greeted && target.version === 1 ? undefined : new VotifierError('the Votifier listener closed the connection')),
    );
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length > MAX_GREETING + 4096) return finish(new VotifierError('the Votifier listener sent too much'));
      if (!greeted) {
        const end = received.indexOf(0x0a);
        if (end < 0) return received.length > MAX_GREETING ? finish(new VotifierError('no Votifier greeting')) : undefined;
        const [word, version, challenge] = received.subarray(0, end).toString('utf8').trim().split(' ');
        received = received.subarray(end + 1);
        if (word !== 'VOTIFIER') return finish(new VotifierError('not a Votifier listener'));
        greeted = true;
        if (target.version === 2) {
          if (!version?.startsWith('2') || !challenge)
            return finish(new VotifierError('the listener does not speak Votifier v2; choose v1 and paste its public key'));
          socket.write(votifierV2Packet(vote, challenge, target.token));
        } else {
          // v1 listeners read one block and close; the answer is the closed connection.
          socket.end(votifierV1Block(vote, target.publicKey));
        }
        return undefined;
      }
      if (target.version === 2) {
        const text = received.toString('utf8').trim();
        if (!text.endsWith('}')) return undefined;
        let answer: { status?: string; cause?: string; error?: string };
        try {
          answer = JSON.parse(text) as typeof answer;
        } catch {
          return finish(new VotifierError('the Votifier listener answered something else than JSON'));
        }
        return finish(
          answer.status === 'ok'
            ? undefined
            : new VotifierError(`the Votifier listener refused the vote: ${answer.cause ?? ''} ${answer.error ?? ''}`.trim()),
        );
      }
      return undefined;
    });
  });
}
