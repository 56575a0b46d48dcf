import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { E2E_ADMIN, E2E_DISCORD } from './accounts';

const ROOT = path.resolve(import.meta.dirname, '..');

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    dataDir: string;
    /** Loopback ports the server may ask game servers on: each journey starts its own fake game server on one. */
    gamePorts: number[];
    /** A loopback port the server may send vote rewards to (nothing listens there). */
    rewardPort: number;
    /** The loopback port the server knows as Discord: the Discord journeys start their local provider on it. */
    discordPort: number;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode} before it was ready`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server was not ready at ${url} within ${timeoutMs} ms`);
}

/** Starts the real server on a free port with a fresh data directory and demo data; stops it after the run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!fs.existsSync(path.join(ROOT, 'dist/web/index.html'))) {
    throw new Error('dist/web is missing: run `npx vite build` before the browser tests (npm test does it for you).');
  }
  const port = await freePort();
  // Game queries never reach loopback, except these exact targets: free now, bound later by a test's fake game server.
  const gamePorts: number[] = [];
  while (gamePorts.length < 3) {
    const next = await freePort();
    if (next !== port && !gamePorts.includes(next)) gamePorts.push(next);
  }
  let discordPort = await freePort();
  while (discordPort === port || gamePorts.includes(discordPort)) discordPort = await freePort();
  // Where a journey's vote-reward webhook points: allowed like the game ports, nothing listens (its delivery fails visibly).
  let rewardPort = await freePort();
  while (rewardPort === port || rewardPort === discordPort || gamePorts.includes(rewardPort)) rewardPort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-e2e-'));
  const logs: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      SEED_DEMO: '1',
      // Every browser journey's account comes from 127.0.0.1: no holds (they have their own tests).
      HOLD_RULES: 'off',
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      ADMIN_EMAIL: E2E_ADMIN.email,
      OUTBOUND_TEST_TARGETS: [...gamePorts, rewardPort].map((p) => `127.0.0.1:${p}`).join(','),
      // Sign in with Discord, against a local provider a journey starts on this port when it needs it.
      DISCORD_CLIENT_ID: E2E_DISCORD.clientId,
      DISCORD_CLIENT_SECRET: E2E_DISCORD.clientSecret,
      DISCORD_API_URL: `http://127.0.0.1:${discordPort}`,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => logs.push(chunk.toString());
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const baseURL = `http://127.0.0.1:${port}`;
  try {
    await waitForReady(`${baseURL}/api/ready`, child, 90_000);
  } catch (error) {
    child.kill('SIGTERM');
    throw new Error(`${(error as Error).message}\n--- server output ---\n${logs.join('')}`);
  }
  project.provide('baseURL', baseURL);
  project.provide('dataDir', dataDir);
  project.provide('gamePorts', gamePorts);
  project.provide('discordPort', discordPort);
  project.provide('rewardPort', rewardPort);

  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 15_000)))]);
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
