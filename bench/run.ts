import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { build } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../src/server/db/seed/demo';

/**
 * `npm run bench`: the hot endpoints under load on 127.0.0.1, against the embedded database
 * with demo data. Each target runs for a bounded time; the run fails when one misses its floor.
 */
interface Target {
  name: string;
  path: string;
  headers?: Record<string, string>;
  minRps: number;
  maxP99Ms: number;
}

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-bench-'));
  const app = await build(loadConfig({ DATA_DIR: dataDir, SEED_DEMO: '1' }), { logger: { level: 'warn' } });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const login = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: DEMO_ACCOUNTS.player, password: DEMO_PASSWORD },
    });
    const token = (login.json() as { token: string }).token;
    const firstServer = (await app.ctx.db.selectFrom('servers').select('id').orderBy('likes', 'desc').executeTakeFirstOrThrow()).id;

    const targets: Target[] = [
      { name: 'live player count (memory)', path: '/api/player-count', minRps: 4000, maxP99Ms: 50 },
      { name: 'health', path: '/api/health', minRps: 4000, maxP99Ms: 50 },
      {
        name: 'current user (one indexed query)',
        path: '/api/user',
        headers: { authorization: `Bearer ${token}` },
        minRps: 500,
        maxP99Ms: 150,
      },
      { name: 'top servers by likes', path: '/api/servers?sort=likes&limit=24', minRps: 300, maxP99Ms: 250 },
      { name: 'search by name and filter', path: '/api/servers?q=rp&filters=English&limit=24', minRps: 300, maxP99Ms: 250 },
      { name: 'server page', path: `/api/servers/${firstServer}`, minRps: 200, maxP99Ms: 300 },
      { name: 'filter categories (memory)', path: '/api/filters/categories', minRps: 3000, maxP99Ms: 50 },
    ];
    let failed = 0;
    for (const target of targets) {
      // A short unmeasured run first: JIT and caches warm, as on a server that has been up a while.
      await autocannon({ url: base + target.path, headers: target.headers, connections: 10, duration: 1 });
      const result = await autocannon({ url: base + target.path, headers: target.headers, connections: 20, duration: DURATION_S });
      const rps = result.requests.average;
      const p99 = result.latency.p99;
      const ok = rps >= target.minRps && p99 <= target.maxP99Ms && result.non2xx === 0 && result.errors === 0;
      if (!ok) failed++;
      console.log(
        `${ok ? '✓' : '✖'} ${target.name.padEnd(34)} ${rps.toFixed(0).padStart(6)} req/s  p99 ${String(p99).padStart(4)} ms  (floor ${target.minRps} req/s, p99 ≤ ${target.maxP99Ms} ms)`,
      );
    }
    process.exitCode = failed > 0 ? 1 : 0;
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
