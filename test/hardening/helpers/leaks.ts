import type { Cast } from './actors';
import type { Exchange } from './openapi';

/** Keys no answer may carry, whoever asks. */
const PRIVATE_KEYS = [
  'passwordHash',
  'password_hash',
  'password',
  'tokenVersion',
  'token_version',
  'tokenHash',
  'token_hash',
  'stripeCustomerId',
  'resetToken',
];

/**
 * Private data in the answers of a run: private keys, another user's Stripe customer id, another
 * user's e-mail address (admins may see addresses), and stored reset-token hashes.
 */
export function findLeaks(exchanges: Exchange[], cast: Cast, secrets: string[] = []): string[] {
  const users = [cast.admin, cast.a.owner, cast.a.player, cast.b.owner, cast.b.player];
  const leaks: string[] = [];
  for (const exchange of exchanges) {
    const { body, actor } = exchange;
    const where = `${actor} ${exchange.key} (${exchange.status})`;
    for (const key of PRIVATE_KEYS) if (body.includes(`"${key}"`)) leaks.push(`${where}: key "${key}"`);
    for (const user of users) {
      const own = user.row.username === actor;
      if (!own && body.includes(`cus_secret_${user.row.username}`)) leaks.push(`${where}: Stripe customer id of ${user.row.username}`);
      const email = user.row.email;
      if (!own && actor !== cast.admin.row.username && email && body.includes(email))
        leaks.push(`${where}: e-mail of ${user.row.username}`);
    }
    for (const secret of secrets) if (secret && body.includes(secret)) leaks.push(`${where}: a stored secret`);
  }
  return leaks;
}
