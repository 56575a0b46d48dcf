import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

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

function start(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: { ...process.env, LOG_LEVEL: 'info', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitReady(base: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${base}/api/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become ready');
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

    // The embedded database reopens cleanly after the shutdown.
    const again = start({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: '0', DATABASE_URL: '' });
    await waitReady(base);
    again.child.kill('SIGINT');
    expect(await again.exited, again.output()).toBe(0);
    // Three cold starts of a process with an embedded database: generous on a busy 2-core machine.
  }, 120_000);
});
