import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openTestDatabase } from './helpers/test-db';
import type { DatabaseHandle } from '../src/server/db/database';
import { createTestApp } from './helpers/test-app';

describe('the admin from ADMIN_USERNAME / ADMIN_PASSWORD / ADMIN_EMAIL', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  const login = (t: Awaited<ReturnType<typeof createTestApp>>, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'chief', password } });

  it('is created at start-up, and a restart with a new password resets it and ends old sessions', async () => {
    const first = await createTestApp({
      env: { ADMIN_USERNAME: 'chief', ADMIN_PASSWORD: 'first-admin-pw', ADMIN_EMAIL: 'chief@example.test' },
      build: { database },
    });
    const res = await login(first, 'first-admin-pw');
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ username: 'chief', role: 'admin', email: 'chief@example.test' });
    const token = res.json().token as string;
    await first.close();

    const same = await createTestApp({ env: { ADMIN_USERNAME: 'chief', ADMIN_PASSWORD: 'first-admin-pw' }, build: { database } });
    expect((await same.app.inject({ url: '/api/user', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401); // other DATA_DIR, other secret
    expect((await login(same, 'first-admin-pw')).statusCode).toBe(200);
    await same.close();

    const second = await createTestApp({ env: { ADMIN_USERNAME: 'chief', ADMIN_PASSWORD: 'second-admin-pw' }, build: { database } });
    expect((await login(second, 'first-admin-pw')).statusCode).toBe(401);
    expect((await login(second, 'second-admin-pw')).statusCode).toBe(200);
    const admins = await second.app.ctx.db.selectFrom('users').select('id').where('role', '=', 'admin').execute();
    expect(admins).toHaveLength(1);
    await second.close();
  });

  it('is the only way to an admin: the register route refuses the role', async () => {
    const t = await createTestApp({ build: { database } });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { username: 'wannabe', password: 'long-enough-pw', role: 'admin' },
    });
    expect(res.statusCode).toBe(400);
    await t.close();
  });

  it('needs both name and password', () => {
    expect(() => loadConfig({ ADMIN_USERNAME: 'chief' })).toThrow(/ADMIN_USERNAME and ADMIN_PASSWORD go together/);
    expect(typeof build).toBe('function');
  });
});
