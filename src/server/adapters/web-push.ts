import { createRequire } from 'node:module';
import type * as WebPush from 'web-push';
import { GuardedHttpsAgent } from './guarded-http';

const require = createRequire(import.meta.url);
/** Required at the first push, not at start-up: most instances send few, and it is a few MB resident. */
const webpush = () => require('web-push') as typeof WebPush;

export interface PushKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** What a push send ended in: delivered, gone for good (404/410: forget the subscription), or failed. */
export type PushOutcome = 'sent' | 'gone' | 'failed';

/** Push services browsers use; others are refused, so a subscription cannot aim requests anywhere. */
const KNOWN_PUSH_HOSTS = [
  /^fcm\.googleapis\.com$/,
  /^updates\.push\.services\.mozilla\.com$/,
  /^push\.services\.mozilla\.com$/,
  /\.notify\.windows\.com$/,
  /^web\.push\.apple\.com$/,
  /\.push\.apple\.com$/,
];

export function isAllowedEndpoint(endpoint: string, extraHosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  return KNOWN_PUSH_HOSTS.some((re) => re.test(url.hostname)) || extraHosts.includes(url.host);
}

/** Push services answer a few hundred bytes; anything near this is not a push service. */
const PUSH_ANSWER_BYTES = 64 * 1024;

/**
 * Sends web push through the `web-push` package (VAPID, aes128gcm). Payloads stay under 4 KB
 * and carry a TTL. Every send goes through a guarded agent: the endpoint's host must resolve to
 * public addresses only, the connection is pinned to the checked one, answers are capped and
 * redirects are never followed (`https.request` does not). Tests hand in a guarded agent that
 * trusts their local endpoint and allows exactly its address.
 */
export function createPushSender(keys: PushKeys, agent?: GuardedHttpsAgent) {
  if (agent !== undefined && !(agent instanceof GuardedHttpsAgent)) throw new Error('push requests need a GuardedHttpsAgent');
  const guarded = agent ?? new GuardedHttpsAgent({}, { maxResponseBytes: PUSH_ANSWER_BYTES, maxConnectionMs: 15_000 });
  return {
    publicKey: keys.publicKey,
    async send(target: PushTarget, payload: object, ttlSeconds: number): Promise<PushOutcome> {
      const body = JSON.stringify(payload);
      if (Buffer.byteLength(body) > 3800) throw new Error('push payload over 3800 bytes');
      try {
        await webpush().sendNotification({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, body, {
          TTL: ttlSeconds,
          vapidDetails: { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
          contentEncoding: 'aes128gcm',
          timeout: 10_000,
          agent: guarded,
        });
        return 'sent';
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode;
        return status === 404 || status === 410 ? 'gone' : 'failed';
      }
    },
  };
}

export type PushSender = ReturnType<typeof createPushSender>;

export const generateVapidKeys = () => webpush().generateVAPIDKeys();
