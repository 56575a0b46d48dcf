import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { wideLines } from './helpers/wide-lines';

// A build of its own beside dist/server (same depth, so paths from import.meta.dirname hold),
// so the test never replaces the build a running `npm start` uses.
const OUT = path.resolve(`dist/server-test-${process.pid}`);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

describe('the compiled server', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-build-'));
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(OUT, { recursive: true, force: true });
  });

  it('builds to JavaScript, then starts on a new embedded database: migrated, seeded, ready and serving', async () => {
    const built = spawnSync(process.execPath, ['scripts/build-server.mjs', '--outdir', OUT], { encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    expect(fs.existsSync(path.join(OUT, 'server.js'))).toBe(true);
    expect(fs.existsSync(path.join(OUT, 'cli.js'))).toBe(true);
    // One byte a character in V8 (its source is held for the process's life): no line past U+00FF.
    expect(wideLines(OUT)).toEqual([]);

    const port = await freePort();
    const child = spawn(process.execPath, [path.join(OUT, 'server.js')], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        SEED_DEMO: '1',
        NODE_ENV: 'production',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}`;
    try {
      let ready = false;
      for (let i = 0; i < 600 && !ready && child.exitCode === null; i++) {
        ready = await fetch(`${base}/api/ready`).then(
          (r) => r.ok,
          () => false,
        );
        if (!ready) await new Promise((r) => setTimeout(r, 100));
      }
      expect(ready, out.slice(-4000)).toBe(true);
      // The demo seed ran compiled (its images were made and stored) and the migrations applied.
      const list = (await (await fetch(`${base}/api/servers?limit=3`)).json()) as { banner: string | null }[];
      expect(list.length).toBeGreaterThan(0);
      const image = list.map((s) => s.banner).find(Boolean);
      expect(image).toBeTruthy();
      expect((await fetch(`${base}${image}`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, out.slice(-4000)).toBe(0);
  }, 90_000);
});
