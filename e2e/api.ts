import sharp from 'sharp';
import { expect } from 'vitest';
import { baseURL, uniqueName } from './browser';

/** A JSON call to the API the way a test sets things up: fails the test on a non-2xx answer. */
export async function api<T = Record<string, unknown>>(method: string, pathname: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${baseURL()}${pathname}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.ok, `${method} ${pathname} answered ${res.status}`).toBe(true);
  return (await res.json()) as T;
}

/** A new account with an e-mail (so login does not stop at /update-email). */
export async function registerUser(role: 'player' | 'server_owner'): Promise<{ username: string; password: string; token: string }> {
  const username = uniqueName(role === 'player' ? 'player' : 'owner');
  const password = `${role}-password`;
  const { token } = await api<{ token: string }>('POST', '/api/register', { username, password, role });
  await api('POST', '/api/users/update-email', { email: `${username}@e2e.test` }, token);
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
