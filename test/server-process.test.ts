import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../scripts/lib/node-flags.mjs';
import { isGlibc } from '../src/server/lib/start-settings';

const SERVER = path.resolve('src/server/server.ts');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function start(
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  // Without npm start's malloc variables unless a test gives them: as a container would start it.
  const inherited = { ...process.env };
  for (const name of Object.keys(SERVER_ENV)) delete inherited[name];
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', SERVER], {
    env: { ...inherited, LOG_LEVEL: 'info', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** Waits for the ready check; on a busy 2-core machine a cold start on a new database takes a while. */
async function waitReady(base: string, timeoutMs = 60_000, output?: () => string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${base}/api/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not become ready${output ? `; it printed:\n${output().slice(-4000)}` : ''}`);
}

describe('the server process', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-proc-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('refuses a bad configuration, listing every problem, before touching anything', async () => {
    const { exited, output } = start({ PORT: 'abc', DATABASE_URL: 'mysql://nope', SEED_DEMO: 'maybe' });
    expect(await exited).toBe(1);
    expect(output()).toContain('Invalid configuration');
    for (const name of ['PORT', 'DATABASE_URL', 'SEED_DEMO']) expect(output()).toContain(name);
  });

  it('finishes in-flight requests on SIGTERM, then closes and exits 0; a second instance on the same data is refused', async () => {
    const port = await freePort();
    const dataDir = tempDir();
    const base = `http://127.0.0.1:${port}`;
    const server = start({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: '0', DATABASE_URL: '' });
    await waitReady(base).catch((e: Error) => {
      throw new Error(`${e.message}: ${server.output()}`);
    });

    const second = start({ PORT: String(await freePort()), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: '0', DATABASE_URL: '' });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('is using the embedded database');

    // Logins are slow on purpose (argon2, two at a time), so these are still running at SIGTERM.
    const inFlight = Array.from({ length: 5 }, (_, i) =>
      fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: `ghost_${i}`, password: 'wrong-password' }),
      }).then((r) => r.status),
    );
    // SIGTERM once the server has read all five requests (its log says so), so they are in flight.
    const received = () =>
      server
        .output()
        .split('\n')
        .filter((l) => l.includes('"url":"/api/login"') && l.includes('incoming request')).length;
    for (let i = 0; i < 300 && received() < 5; i++) await new Promise((r) => setTimeout(r, 10));
    expect(received()).toBe(5);
    server.child.kill('SIGTERM');
    expect(await Promise.all(inFlight)).toEqual([401, 401, 401, 401, 401]);
    expect(await server.exited, server.output()).toBe(0);
    expect(server.output()).toContain('"msg":"closed"');
    expect(fs.existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
    // Started as `node server.js` alone: it set the heap's growth itself and named what it lacks.
    const lines = server.output();
    expect(lines).toContain(`set ${SERVER_NODE_FLAGS.find((f) => f.startsWith('--heap-growing-percent='))} itself`);
    const warning = lines.split('\n').find((l) => l.includes('started without'));
    expect(warning, lines).toBeDefined();
    expect(warning).toContain('"level":40');
    expect(warning).toContain('--max-semi-space-size=8');
    if (isGlibc()) for (const [name, value] of Object.entries(SERVER_ENV)) expect(warning).toContain(`${name}=${value}`);

    // The embedded database reopens cleanly after the shutdown; started as npm start starts it,
    // it has nothing to set or name.
    const again = start(
      { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: '0', DATABASE_URL: '', ...SERVER_ENV },
      SERVER_NODE_FLAGS,
    );
    await waitReady(base);
    again.child.kill('SIGINT');
    expect(await again.exited, again.output()).toBe(0);
    expect(again.output()).not.toContain('itself (not on');
    expect(again.output()).not.toContain('started without');
    // Three cold starts of a process with an embedded database: generous on a busy 2-core machine.
  }, 120_000);
  it('drains on SIGTERM: not ready at once, still answering on open connections (each answer closing its own), then exits within its time', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = start({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: tempDir(),
      SEED_DEMO: '0',
      DATABASE_URL: '',
      SHUTDOWN_DRAIN_MS: '1500',
      SHUTDOWN_TIMEOUT_MS: '5000',
    });
    await waitReady(base).catch((e: Error) => {
      throw new Error(`${e.message}: ${server.output()}`);
    });
    // A proxy's kept-alive connection, opened before the signal.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (url: string) =>
      new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
        http
          .get(`${base}${url}`, { agent }, (res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
          })
          .on('error', reject);
      });
    expect((await get('/api/ready')).status).toBe(200);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    // Not ready at once, while still answering, with each answer closing its connection.
    let ready = await get('/api/ready');
    for (let i = 0; i < 50 && ready.status === 200; i++) ready = await get('/api/ready');
    expect(ready.status).toBe(503);
    expect(ready.connection).toBe('close');
    const list = await get('/api/servers?limit=5');
    expect(list.status).toBe(200);
    expect(list.connection).toBe('close');
    expect(JSON.parse(list.body)).toBeInstanceOf(Array);
    expect(Date.now() - signalled).toBeLessThan(1500);
    agent.destroy();
    expect(await server.exited, server.output()).toBe(0);
    // It drained for its time before it closed, and closed well within its limit.
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(1400);
    expect(server.output()).toContain('"msg":"closed"');
  }, 120_000);
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('two server processes on PostgreSQL and Redis', () => {
  it('a count change seen by one process reaches a socket client connected to the other', async () => {
    const { openDatabase } = await import('../src/server/db/database');
    const { sql } = await import('kysely');
    const { adminUrl, freshDatabaseName, withDatabase } = await import('./helpers/postgres');
    const { io } = await import('socket.io-client');
    const base = process.env.TEST_DATABASE_URL!;
    const name = freshDatabaseName();
    const admin = await openDatabase({ kind: 'postgres', url: adminUrl(base), poolSize: 1 });
    await sql`CREATE DATABASE ${sql.id(name)}`.execute(admin.db);
    const env = {
      DATABASE_URL: withDatabase(base, name),
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      HOST: '127.0.0.1',
      JWT_SECRET: 'x'.repeat(40),
      SEED_DEMO: '0',
      ADMIN_USERNAME: 'twin_admin',
      ADMIN_PASSWORD: 'twin-admin-pw',
    };
    const [portA, portB] = [await freePort(), await freePort()];
    const a = start({ ...env, PORT: String(portA), DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'rp-twin-a-')) });
    await waitReady(`http://127.0.0.1:${portA}`, 60_000, a.output);
    const b = start({ ...env, PORT: String(portB), DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'rp-twin-b-')) });
    await waitReady(`http://127.0.0.1:${portB}`, 60_000, b.output);
    const socket = io(`http://127.0.0.1:${portB}`, { transports: ['websocket'], reconnection: false });
    const counts: number[] = [];
    socket.on('playerCountUpdated', (n: number) => counts.push(n));
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on('connect', () => resolve());
        socket.on('connect_error', reject);
      });
      // Players arrive on a server (as the poller will write them), then A notices a change of its own.
      const db = await openDatabase({ kind: 'postgres', url: env.DATABASE_URL, poolSize: 1 });
      const owner = await db.db
        .insertInto('users')
        .values({ username: 'twin_owner', passwordHash: 'x', role: 'server_owner' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.db.insertInto('servers').values({ ownerId: owner.id, name: 'Twin City', currentPlayers: 77, online: true }).execute();
      await db.close();
      const login = await fetch(`http://127.0.0.1:${portA}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'twin_admin', password: 'twin-admin-pw' }),
      });
      expect(login.status).toBe(200);
      const owner2 = await fetch(`http://127.0.0.1:${portA}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'twin_owner2', password: 'twin-owner-pw', role: 'server_owner' }),
      });
      const { token } = (await owner2.json()) as { token: string };
      const created = await fetch(`http://127.0.0.1:${portA}/api/servers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ name: 'Trigger' }),
      });
      expect(created.status).toBe(201);
      for (let i = 0; i < 100 && !counts.includes(77); i++) await new Promise((r) => setTimeout(r, 50));
      expect(counts).toContain(77);
    } finally {
      socket.disconnect();
      a.child.kill('SIGTERM');
      b.child.kill('SIGTERM');
      await Promise.all([a.exited, b.exited]);
      await sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(admin.db);
      await admin.close();
    }
  }, 120_000);
});
