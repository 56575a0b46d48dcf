import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { BenchTarget } from '../seed/database';
import { ensureServerBuild } from '../../scripts/lib/ensure.mjs';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../scripts/lib/node-flags.mjs';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
/** The app's secret in the benchmark, so the benchmark can sign access tokens the app accepts. */
export const BENCH_JWT_SECRET = 'bench-jwt-secret-0123456789abcdef-not-for-production';

export interface AppProcess {
  baseUrl: string;
  pid: number;
  /** How the app was started (the compiled build). */
  command: string;
  startupMs: number;
  /** Highest resident memory seen so far (the kernel's VmHWM), in MB. */
  peakRssMb(): number;
  /** Output of the app (warnings and errors at LOG_LEVEL=warn). */
  output(): string;
  /** CPU time the app has used so far, in clock ticks (utime + stime of /proc/<pid>/stat). */
  cpuTicks(): number;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

function readStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

function readCpuTicks(pid: number): number {
  try {
    // The fields after the command name (which may hold spaces) start at its closing parenthesis.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/**
 * Starts the app as production does: the compiled server (`dist/server/server.js`), built first
 * when it is missing or older than its sources. Answers once `/api/ready` says 200, with the time
 * that took; memory is sampled from /proc until the app stops.
 */
export async function startApp(
  target: BenchTarget,
  options: {
    redisUrl?: string;
    timeoutMs?: number;
    /** Serves `/metrics` there (the cache counters; adds the request timing hooks). */
    metricsPort?: number;
  } = {},
): Promise<AppProcess> {
  const port = await freePort();
  await ensureServerBuild();
  // BENCH_CPU_PROF=<dir>: the app writes a V8 CPU profile there when it stops (profiling a target).
  const profileDir = process.env.BENCH_CPU_PROF;
  // BENCH_NODE_ARGS: extra V8/Node flags for the app (trying memory settings), space-separated; after
  // production's own, so a later value of the same flag wins.
  const extra = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  // BENCH_HEAP_SNAPSHOT=<dir>: the app writes a heap snapshot there as the benchmark stops it (what
  // the scenarios left in memory), and one on SIGUSR2 at any time.
  const snapshotDir = process.env.BENCH_HEAP_SNAPSHOT;
  if (snapshotDir) fs.mkdirSync(snapshotDir, { recursive: true });
  const args = [
    ...SERVER_NODE_FLAGS,
    ...extra,
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    ...(snapshotDir ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapshotDir}`] : []),
    path.join(ROOT, 'dist', 'server', 'server.js'),
  ];
  // On PostgreSQL the app still keeps uploads and mail in a data directory: a temporary one.
  const ownDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-bench-app-'));
  // BENCH_NO_SERVER_ENV=1: without `npm start`'s malloc variables, as a process manager that runs
  // `node dist/server/server.js` alone would start it (what the app then sets itself is measured).
  const mallocEnv = process.env.BENCH_NO_SERVER_ENV ? {} : SERVER_ENV;
  const env: NodeJS.ProcessEnv = {
    ...mallocEnv,
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    JWT_SECRET: BENCH_JWT_SECRET,
    LOG_LEVEL: 'warn',
    SEED_DEMO: '0',
    // The vote benchmark speaks for many users from many addresses through X-Forwarded-For, as a
    // reverse proxy on this machine would.
    TRUST_PROXY: '127.0.0.1',
    ...(target.kind === 'postgres' ? { DATABASE_URL: target.url, DATA_DIR: ownDataDir } : { DATA_DIR: target.dataDir }),
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
    ...(options.metricsPort ? { METRICS_PORT: String(options.metricsPort) } : {}),
  };
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  // BENCH_APP_LOG=<file>: everything the app writes goes there too (`--trace-gc` through BENCH_NODE_ARGS).
  if (process.env.BENCH_APP_LOG) {
    const log = fs.createWriteStream(process.env.BENCH_APP_LOG);
    child.stdout!.pipe(log);
    child.stderr!.pipe(log);
  }
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      resolve();
    }),
  );

  let peakKb = 0;
  const sample = () => {
    peakKb = Math.max(peakKb, readStatusKb(child.pid!, 'VmHWM'), readStatusKb(child.pid!, 'VmRSS'));
  };
  const sampler = setInterval(sample, 200);

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = started + (options.timeoutMs ?? 120_000);
  for (;;) {
    if (exited !== undefined) {
      clearInterval(sampler);
      fs.rmSync(ownDataDir, { recursive: true, force: true });
      throw new Error(`the app exited (code ${exited}) before it was ready:\n${output}`);
    }
    if (performance.now() > deadline) {
      clearInterval(sampler);
      child.kill('SIGKILL');
      throw new Error(`the app was not ready within ${options.timeoutMs ?? 120_000} ms:\n${output}`);
    }
    const ready = await fetch(`${baseUrl}/api/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const startupMs = performance.now() - started;
  sample();

  return {
    baseUrl,
    pid: child.pid!,
    // The whole command, its environment's malloc variables included: what an operator copies.
    command: [...Object.entries(mallocEnv).map(([k, v]) => `${k}=${v}`), 'node', ...args.map((a) => path.relative(ROOT, a) || a)].join(' '),
    startupMs,
    peakRssMb: () => {
      sample();
      return peakKb / 1024;
    },
    output: () => output,
    cpuTicks: () => readCpuTicks(child.pid!),
    stop: async () => {
      sample();
      clearInterval(sampler);
      if (snapshotDir && exited === undefined) {
        // A snapshot that fails still lets the app be stopped below.
        await heapSnapshot(child, snapshotDir).catch((error: unknown) => console.error(`heap snapshot: ${String(error)}`));
      }
      if (exited === undefined) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exit;
        clearTimeout(timer);
      }
      fs.rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Load stops with requests still in flight: the next target starts once every app has answered
 * them, that is when a readiness probe (it queries the database, so it waits behind them) is
 * answered at once and the app's CPU has been idle for `samples` samples in a row (250 ms each).
 */
export function restWaiter(apps: readonly AppProcess[]): (samples?: number) => Promise<void> {
  const rest = async (app: AppProcess, samples: number) => {
    const until = performance.now() + 60_000;
    let quiet = 0;
    while (performance.now() < until && quiet < samples) {
      const started = performance.now();
      const ticks = app.cpuTicks();
      const ok = await fetch(`${app.baseUrl}/api/ready`, { signal: AbortSignal.timeout(10_000) }).then(
        (r) => r.ok,
        () => false,
      );
      await new Promise((r) => setTimeout(r, 250));
      // Clock ticks are hundredths of a second: at most 3 in 250 ms is a process at rest.
      quiet = ok && performance.now() - started < 400 && app.cpuTicks() - ticks <= 3 ? quiet + 1 : 0;
    }
    if (quiet < samples) console.log(`  (the app at ${app.baseUrl} was still busy after 60 s of waiting for it to rest)`);
  };
  return async (samples = 2) => {
    await Promise.all(apps.map((app) => rest(app, samples)));
  };
}

/** Asks the app for a heap snapshot (SIGUSR2) and waits until its file is written whole. */
async function heapSnapshot(child: ChildProcess, dir: string): Promise<void> {
  const files = () => new Set(fs.readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot')));
  const before = files();
  child.kill('SIGUSR2');
  const until = performance.now() + 120_000;
  let size = -1;
  while (performance.now() < until) {
    await new Promise((r) => setTimeout(r, 500));
    const written = [...files()].find((f) => !before.has(f));
    if (!written) continue;
    // The snapshot's last byte closes its JSON: the file is complete once it ends in `}` and stops growing.
    const file = path.join(dir, written);
    const now = fs.statSync(file).size;
    if (now === size && now > 0 && lastByte(file, now) === '}') return;
    size = now;
  }
}

function lastByte(file: string, size: number): string {
  const fd = fs.openSync(file, 'r');
  try {
    const byte = Buffer.alloc(1);
    fs.readSync(fd, byte, 0, 1, size - 1);
    return byte.toString();
  } finally {
    fs.closeSync(fd);
  }
}
