import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';
import { filler, rawUpload } from './helpers/raw-upload';
import { UPLOAD_BUDGET_BYTES, uploadBytesInFlight } from '../src/server/plugins/upload-guard';

const MB = 1024 * 1024;
const boundary = '----rpguard';
const formHead = (field: string) =>
  Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`);
const formHeaders = (user?: TestUser) => ({
  'content-type': `multipart/form-data; boundary=${boundary}`,
  ...(user ? user.headers : {}),
});

describe('uploads are checked before their body is read', () => {
  let t: TestApp;
  let port: number;
  let owner: TestUser;
  let stranger: TestUser;
  let serverId: number;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    owner = await createUser(t.app, { role: 'server_owner', plan: 'Pro' });
    stranger = await createUser(t.app, { role: 'server_owner', plan: 'Pro' });
    serverId = (await createServer(t.app, owner.row.id)).id;
  });
  afterAll(() => t.close());

  it("answers 403 to 50 MB for someone else's server after a few KB, quickly and without buffering it", async () => {
    const rssBefore = process.memoryUsage().rss;
    const res = await rawUpload({
      port,
      path: `/api/servers/${serverId}/upload-gallery`,
      headers: formHeaders(stranger),
      declaredLength: 50 * MB,
      // Only the first 64 KB is ever sent: the answer must not wait for the rest.
      chunks: [formHead('galleryImages'), ...filler(1)],
      timeoutMs: 3000,
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'You can only manage your own servers.' });
    expect(res.headers.connection).toBe('close');
    expect(res.ms).toBeLessThan(1000);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(20 * MB);
  });

  it('answers 404 for a server that does not exist and 401 without a token, the same way', async () => {
    const missing = await rawUpload({
      port,
      path: '/api/servers/999999999/upload-profile',
      headers: formHeaders(owner),
      declaredLength: 50 * MB,
      chunks: [formHead('profilePicture')],
      timeoutMs: 3000,
    });
    expect(missing.status).toBe(404);
    const anonymous = await rawUpload({
      port,
      path: `/api/servers/${serverId}/upload-profile`,
      headers: formHeaders(),
      declaredLength: 50 * MB,
      chunks: [formHead('profilePicture')],
      timeoutMs: 3000,
    });
    expect(anonymous.status).toBe(401);
  });

  it("answers 403 to a profile picture for someone else's player profile", async () => {
    const res = await rawUpload({
      port,
      method: 'PUT',
      path: `/api/players/${owner.row.id}`,
      headers: formHeaders(stranger),
      declaredLength: 50 * MB,
      chunks: [formHead('profilePic')],
      timeoutMs: 3000,
    });
    expect(res.status).toBe(403);
  });

  it('answers 413 to a declared 6 MB body for your own server before reading it', async () => {
    const res = await rawUpload({
      port,
      path: `/api/servers/${serverId}/upload-profile`,
      headers: formHeaders(owner),
      declaredLength: 6 * MB,
      chunks: [formHead('profilePicture')],
      timeoutMs: 3000,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'Images can be at most 5 MB.' });
    expect(res.ms).toBeLessThan(1000);
  });

  it('cuts a chunked body without Content-Length at the limit', async () => {
    // 8 MB of bytes that are no part at all: the parser alone would read it to the end.
    const res = await rawUpload({
      port,
      path: `/api/servers/${serverId}/upload-profile`,
      headers: formHeaders(owner),
      chunks: filler(128),
      timeoutMs: 5000,
    });
    expect(res.status).toBe(413);
    expect(res.sent).toBeLessThan(8 * MB);
    const media = await t.app.ctx.db.selectFrom('media').select('id').where('serverId', '=', serverId).execute();
    expect(media).toEqual([]);
  });

  it('caps the bytes uploads in flight may hold: stalled senders get no more than the budget', async () => {
    const baseline = uploadBytesInFlight();
    // Four customise requests that declare 60 MB each, send their first bytes and stall.
    const stalled = Array.from({ length: 4 }, () => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'PUT',
        path: `/api/servers/${serverId}/customize`,
        headers: { ...formHeaders(owner), 'content-length': String(60 * MB) },
      });
      req.on('error', () => undefined);
      req.write(formHead('galleryImages'));
      return req;
    });
    try {
      await expect.poll(() => uploadBytesInFlight(), { timeout: 5000 }).toBe(baseline + 4 * 60 * MB);
      expect(uploadBytesInFlight()).toBeLessThanOrEqual(UPLOAD_BUDGET_BYTES);
      // A fifth would take the total past the budget (5 × 60 MB > 256 MB).
      const refused = await rawUpload({
        method: 'PUT',
        port,
        path: `/api/servers/${serverId}/customize`,
        headers: formHeaders(owner),
        declaredLength: 60 * MB,
        chunks: [formHead('galleryImages')],
        timeoutMs: 3000,
      });
      expect(refused.status).toBe(503);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(JSON.parse(refused.body)).toMatchObject({ error: 'The site is busy right now. Please try again in a moment.' });
    } finally {
      for (const req of stalled) req.destroy();
    }
    // Dropped connections give their bytes back, and uploads go through again.
    await expect.poll(() => uploadBytesInFlight(), { timeout: 5000 }).toBe(baseline);
    const after = await rawUpload({
      port,
      path: `/api/servers/${serverId}/upload-profile`,
      headers: formHeaders(owner),
      declaredLength: 6 * MB,
      chunks: [formHead('profilePicture')],
      timeoutMs: 3000,
    });
    expect(after.status).toBe(413);
  });
});
