import http from 'node:http';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { baseURL, uniqueName } from './browser';
import { confirmTokenFor } from './outbox';

/**
 * Each test file calls from its own loopback address (127.0.0.2–251): the server limits
 * registrations and logins per IP (docs/decisions/005-rate-limits.md), and files that each set up a few accounts
 * should not share one budget, just as separate people would not.
 */
const LOCAL_ADDRESS = `127.0.0.${2 + Math.floor(Math.random() * 250)}`;

/**
 * Each new account registers from the next address of the same /24 (one network, as the fraud
 * journey needs), the way people register from their own devices: a file that makes ten accounts
 * must not spend the per-address budget of another file that drew the same random address.
 */
let registrations = Math.floor(Math.random() * 250);
const nextRegistrationAddress = () => `127.0.0.${2 + (registrations++ % 250)}`;

function send(
  method: string,
  url: URL,
  headers: Record<string, string>,
  body?: string,
  localAddress = LOCAL_ADDRESS,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, localAddress }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A JSON call to the API the way a test sets things up: fails the test on a non-2xx answer. */
export function api<T = Record<string, unknown>>(method: string, pathname: string, body?: unknown, token?: string): Promise<T> {
  return apiFrom<T>(LOCAL_ADDRESS, method, pathname, body, token);
}

/** {@link api} from a given loopback address. */
async function apiFrom<T>(localAddress: string, method: string, pathname: string, body?: unknown, token?: string): Promise<T> {
  const res = await send(
    method,
    new URL(pathname, baseURL()),
    {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body === undefined ? undefined : JSON.stringify(body),
    localAddress,
  );
  expect(res.status >= 200 && res.status < 300, `${method} ${pathname} answered ${res.status}`).toBe(true);
  return (res.text ? JSON.parse(res.text) : undefined) as T;
}

/**
 * A new account with a confirmed e-mail, made as a person makes one: the address given at
 * registration, then the link from the mail it received opened (joining and voting need it).
 */
export async function registerUser(role: 'player' | 'server_owner'): Promise<{ username: string; password: string; token: string }> {
  const username = uniqueName(role === 'player' ? 'player' : 'owner');
  const password = `${role}-password`;
  const email = `${username}@e2e.example.com`;
  const registration = { username, password, role, email };
  const { token } = await apiFrom<{ token: string }>(nextRegistrationAddress(), 'POST', '/api/register', registration);
  await api('POST', '/api/users/confirm-email', { token: await confirmTokenFor(email) });
  return { username, password, token };
}

/** The id of the first listed server with exactly this name. */
export async function serverIdByName(name: string): Promise<string> {
  const servers = await api<Array<{ id: string; name: string }>>('GET', `/api/servers?q=${encodeURIComponent(name)}&limit=100`);
  const found = servers.find((s) => s.name === name);
  expect(found, `no server named ${name}`).toBeDefined();
  return found!.id;
}

/**
 * A PNG of random noise made with sharp: noise does not compress, so `width × height × 3` bytes go
 * over the wire, enough for upload progress to show.
 */
export async function noisePng(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (Math.random() * 256) | 0;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/** A token and user from `POST /api/login`: one login per user and file (logins are rate-limited per client and username). */
export async function apiLogin(username: string, password: string): Promise<{ token: string; user: Record<string, unknown> }> {
  return api<{ token: string; user: Record<string, unknown> }>('POST', '/api/login', { username, password });
}

/** A new owner on the Premium plan (bought through the built-in checkout) with one server. */
export async function premiumOwnerWithServer(): Promise<{
  username: string;
  password: string;
  token: string;
  serverId: string;
  serverName: string;
}> {
  const owner = await registerUser('server_owner');
  const serverName = uniqueName('Promo RP');
  const server = await api<{ id: string }>('POST', '/api/servers', { name: serverName, statusMessage: 'Events every night' }, owner.token);
  const { url } = await api<{ url: string }>('POST', '/api/subscribe-session', { plan: 'Premium' }, owner.token);
  await api('POST', `/api${url}/complete`, undefined, owner.token);
  return { ...owner, serverId: server.id, serverName };
}

/**
 * Signs a browser page in with an API token, leaving what a login through the form leaves
 * (token and user in localStorage), then opens `pathname`. For journeys that are not about
 * logging in: the form's per-network limit is meant for people, and every journey here shares
 * one address.
 */
export async function signInWithToken(page: Page, token: string, pathname: string): Promise<void> {
  const user = await api('GET', '/api/user', undefined, token);
  await page.goto('/manifest.webmanifest');
  await page.evaluate(
    ([t, u]) => {
      localStorage.setItem('token', t);
      localStorage.setItem('user', u);
    },
    [token, JSON.stringify(user)] as const,
  );
  await page.goto(pathname);
}
