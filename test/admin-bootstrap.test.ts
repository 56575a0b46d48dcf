import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/server/app';
import { openDatabase } from '../src/server/db/database';
import { createUser } from './helpers/factories';
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

  it('refuses to start when the name was registered by someone else, and never promotes that account', async () => {
    const t = await createTestApp({ build: { database } });
    const squatter = await createUser(t.app, { username: 'squatted_chief', email: 'squatter@evil.test' });
    await t.close();
    const config = loadConfig({ ADMIN_USERNAME: 'Squatted_Chief', ADMIN_PASSWORD: 'operator-pw-1', SEED_DEMO: '0', DATA_DIR: os.tmpdir() });
    await expect(build(config, { database, logger: false, runWorkers: false })).rejects.toThrow(
      /Refusing to start: ADMIN_USERNAME "Squatted_Chief" is already taken by a player account/,
    );
    const row = await database.db.selectFrom('users').selectAll().where('id', '=', squatter.row.id).executeTakeFirstOrThrow();
    expect(row.role).toBe('player');
    expect(row.email).toBe('squatter@evil.test');
    expect(row.passwordHash).toBe(squatter.row.passwordHash);
  });

  it('sets the e-mail from ADMIN_EMAIL on a reset, or clears it', async () => {
    const env = { ADMIN_USERNAME: 'mailchief', ADMIN_PASSWORD: 'mail-admin-pw' };
    const first = await createTestApp({ env: { ...env, ADMIN_EMAIL: 'one@example.test' }, build: { database } });
    await first.app.ctx.db.updateTable('users').set({ email: 'someone-else@evil.test' }).where('username', '=', 'mailchief').execute();
    await first.close();
    const emailOf = async () =>
      (await database.db.selectFrom('users').select('email').where('username', '=', 'mailchief').executeTakeFirstOrThrow()).email;
    const second = await createTestApp({ env: { ...env, ADMIN_EMAIL: 'two@example.test' }, build: { database } });
    expect(await emailOf()).toBe('two@example.test');
    await second.close();
    const third = await createTestApp({ env, build: { database } });
    expect(await emailOf()).toBeNull();
    await third.close();
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

/** Runs the real server process; resolves with its exit code and everything it printed. */
function runServer(env: Record<string, string>, whileUp?: (base: string) => Promise<void>): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('src/server/server.ts')], {
    // No load balancer to tell: it stops without the drain's wait, which on a busy machine pushed
    // start, request and stop past the time allowed.
    env: { ...process.env, HOST: '127.0.0.1', SEED_DEMO: '0', NODE_ENV: 'production', LOG_LEVEL: 'info', SHUTDOWN_DRAIN_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let started = false;
  const onData = (d: Buffer) => {
    out += d.toString();
    const up = /Server listening at (http:\/\/[\d.:]+)/.exec(out);
    if (up && !started && whileUp) {
      started = true;
      void whileUp(up[1]!).finally(() => child.kill('SIGTERM'));
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    }),
  );
}

describe('the server process with a squatted ADMIN_USERNAME', () => {
  it('exits 1 with one clear message and no stack trace', { timeout: 130_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-squat-'));
    const database = process.env.TEST_DATABASE_URL ? { DATABASE_URL: await emptyPostgres() } : { DATABASE_URL: '' };
    try {
      // Someone registers the name before the operator configures it.
      const first = await runServer({ DATA_DIR: dataDir, PORT: '0', ...database }, async (base) => {
        const res = await fetch(`${base}/api/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'boss', password: 'squatter-pw-1', role: 'server_owner' }),
        });
        expect(res.status).toBe(201);
      });
      expect(first.code, first.out).toBe(0);

      const { code, out } = await runServer({
        DATA_DIR: dataDir,
        PORT: '0',
        ADMIN_USERNAME: 'boss',
        ADMIN_PASSWORD: 'operator-pw-1',
        ...database,
      });
      expect(code, out).toBe(1);
      expect(out).toContain('Refusing to start: ADMIN_USERNAME "boss" is already taken by a server_owner account');
      expect(out).not.toMatch(/\n\s+at /);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** On PostgreSQL runs: an empty database of its own for the two server processes. */
async function emptyPostgres(): Promise<string> {
  const { adminUrl, freshDatabaseName, withDatabase } = await import('./helpers/postgres');
  const { sql } = await import('kysely');
  const url = process.env.TEST_DATABASE_URL!;
  const name = freshDatabaseName();
  const admin = await openDatabase({ kind: 'postgres', url: adminUrl(url), poolSize: 1 });
  await sql`CREATE DATABASE ${sql.id(name)}`.execute(admin.db);
  await admin.close();
  return withDatabase(url, name);
}
