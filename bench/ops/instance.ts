import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_JWT_SECRET, ROOT } from '../lib/app-process';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../scripts/lib/node-flags.mjs';

/** Wall-clock time in milliseconds with sub-millisecond precision (comparable with nginx's `$msec`). */
export const clock = () => performance.timeOrigin + performance.now();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One app instance on a port of its own that outlives its processes: stopped and started again
 * on the same port, as a process manager restarts a service behind a fixed upstream address.
 */
export interface OpsInstance {
  name: string;
  port: number;
  address: string;
  /** Starts the compiled server and answers once `/api/ready` says 200, with the time that took. */
  start(): Promise<number>;
  /** SIGTERM, then waits for the process to exit: its exit code and how long the drain and close took. */
  terminate(): Promise<{ code: number | null; ms: number }>;
  /** SIGKILL (`kill -9`): the process ends at once; answers when it is gone. */
  kill(): Promise<void>;
  running(): boolean;
  /** What the process printed (warnings and errors), across its starts. */
  output(): string;
  /** Removes its data directory (uploads; the data itself is in PostgreSQL). */
  dispose(): void;
}

export interface InstanceSettings {
  /** The compiled server this run starts (its own build, so a build elsewhere cannot change it mid-run). */
  entry: string;
  databaseUrl: string;
  redisUrl: string;
  /** Prefix of this run's Redis keys: rate-limit counters of an earlier run do not carry over. */
  redisPrefix: string;
  drainMs: number;
}

export function opsInstance(name: string, port: number, settings: InstanceSettings): OpsInstance {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `rp-ops-${name}-`));
  let child: ChildProcess | undefined;
  let exit: Promise<number | null> | undefined;
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-40_000);
  };
  const env: NodeJS.ProcessEnv = {
    ...SERVER_ENV,
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: settings.databaseUrl,
    REDIS_URL: settings.redisUrl,
    REDIS_PREFIX: settings.redisPrefix,
    DATA_DIR: dataDir,
    JWT_SECRET: BENCH_JWT_SECRET,
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    SHUTDOWN_DRAIN_MS: String(settings.drainMs),
    // nginx and the load generator are both on loopback: the load stands in for many clients
    // behind one more proxy hop, each request from an address of its own (production: TRUST_PROXY=1).
    TRUST_PROXY: '127.0.0.1',
  };
  const base = `http://127.0.0.1:${port}`;

  return {
    name,
    port,
    address: `127.0.0.1:${port}`,
    running: () => child !== undefined,
    output: () => output,
    dispose: () => fs.rmSync(dataDir, { recursive: true, force: true }),
    async start() {
      if (child) throw new Error(`${name} is already running`);
      const started = clock();
      const proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, settings.entry], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      proc.stdout!.on('data', keep);
      proc.stderr!.on('data', keep);
      child = proc;
      exit = new Promise((resolve) =>
        proc.once('exit', (code) => {
          child = undefined;
          resolve(code);
        }),
      );
      const deadline = started + 120_000;
      for (;;) {
        if (child !== proc) throw new Error(`${name} exited before it was ready:\n${output.slice(-4000)}`);
        if (clock() > deadline) {
          proc.kill('SIGKILL');
          throw new Error(`${name} was not ready within 120 s:\n${output.slice(-4000)}`);
        }
        const ready = await fetch(`${base}/api/ready`, { signal: AbortSignal.timeout(2000) }).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ready) return clock() - started;
        await sleep(50);
      }
    },
    async terminate() {
      if (!child || !exit) throw new Error(`${name} is not running`);
      const started = clock();
      const proc = child;
      proc.kill('SIGTERM');
      // The app exits by itself within its drain and SHUTDOWN_TIMEOUT_MS (20 s); past that the run ends it.
      const stuck = setTimeout(() => proc.kill('SIGKILL'), settings.drainMs + 30_000);
      const code = await exit;
      clearTimeout(stuck);
      return { code, ms: clock() - started };
    },
    async kill() {
      if (!child || !exit) throw new Error(`${name} is not running`);
      child.kill('SIGKILL');
      await exit;
    },
  };
}

/**
 * Compiles the server as production does (scripts/build-server.mjs), into a folder of this run's
 * own beside dist/server: every start and restart of the run runs this one build, whatever else
 * rebuilds dist/server meanwhile. Answers the entry point and a way to remove the build.
 */
export function buildForRun(): { entry: string; dispose: () => void } {
  const outdir = path.join(ROOT, 'dist', `rp-ops-${process.pid}`);
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-server.mjs'), '--outdir', outdir], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error(`the server build failed (exit ${built.status})`);
  return { entry: path.join(outdir, 'server.js'), dispose: () => fs.rmSync(outdir, { recursive: true, force: true }) };
}

/** Stops whatever is still running at the end of a run (a failed run included) and removes the data directories. */
export async function stopAll(instances: readonly OpsInstance[]): Promise<void> {
  await Promise.all(instances.filter((i) => i.running()).map((i) => i.kill()));
  for (const i of instances) i.dispose();
}
