import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { startSmtpServer } from './smtp';
import { TEST_PASSWORD, uniqueName } from './factories';

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;

/** The token of the newest confirmation link mailed to `address` (waits up to 5 s for it). */
export async function confirmTokenFor(smtp: Smtp, address: string): Promise<string> {
  const until = Date.now() + 5000;
  while (Date.now() < until) {
    const mail = smtp.mails.findLast((m) => m.to.includes(address));
    const token = mail && /confirm-email=([\w-]+)/.exec(mail.text)?.[1];
    if (token) return token;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no confirmation mail to ${address}`);
}

/**
 * An account made the way a person makes one: registered with an address through the API, then
 * confirmed by opening the link the mail carried. Answers its id and auth headers.
 */
export async function registerAndConfirm(
  app: FastifyInstance,
  smtp: Smtp,
  options: { role?: 'player' | 'server_owner'; email?: string; remoteAddress?: string } = {},
): Promise<{ id: string; username: string; email: string; headers: { authorization: string } }> {
  const username = uniqueName(options.role === 'server_owner' ? 'owner' : 'player');
  const email = options.email ?? `${username}@mail.example.com`;
  const res = await app.inject({
    method: 'POST',
    url: '/api/register',
    remoteAddress: options.remoteAddress,
    payload: { username, password: TEST_PASSWORD, role: options.role ?? 'player', email },
  });
  expect(res.statusCode, res.body).toBe(201);
  const { token, user } = res.json();
  const confirmed = await app.inject({
    method: 'POST',
    url: '/api/users/confirm-email',
    remoteAddress: options.remoteAddress,
    payload: { token: await confirmTokenFor(smtp, email) },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { id: user.id, username, email, headers: { authorization: `Bearer ${token}` } };
}
