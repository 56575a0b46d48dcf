import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { NO_HOLDS } from '../../src/server/modules/servers';
import { build, type BuildOptions } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import type { RateLimitSettings } from '../../src/server/plugins/rate-limits';
import { openTestDatabase } from './test-db';

export interface LoggedEntry {
  level: number;
  msg: string;
  err?: { message?: string; type?: string };
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  dataDir: string;
  /** Error entries the app logged; a test that expects some takes them with `takeErrors`. */
  errors: LoggedEntry[];
  takeErrors(): LoggedEntry[];
  close(): Promise<void>;
}

const live = new Set<TestApp>();

/** Apps still open, checked after every test for errors nobody expected (setup-file.ts). */
export function liveApps(): ReadonlySet<TestApp> {
  return live;
}

const generous = { max: 10_000, windowMs: 60_000 };
/** Limits no test reaches unless it sets its own. */
export const GENEROUS_LIMITS: RateLimitSettings = {
  loginPerIp: generous,
  loginPerUsername: generous,
  loginPerIpAndUsername: generous,
  registerPerIp: generous,
  registerPerUsername: generous,
  resetPerIp: generous,
  resetPerUsername: generous,
  passwordChangePerIp: generous,
  passwordChangePerUser: generous,
  votesPerIp: generous,
  votesPerUser: generous,
  votesPerNetworkHour: generous,
  votesPerUserHour: generous,
  registerPerNetworkHour: generous,
  uploadsPerIp: generous,
  uploadsPerUser: generous,
  resetConfirmPerIp: generous,
  resetConfirmPerUser: generous,
  emailChangePerIp: generous,
  emailChangePerUser: generous,
  checkoutPerIp: generous,
  checkoutPerUser: generous,
  refreshPerIp: generous,
  pushSubscribePerIp: generous,
  pushSubscribePerUser: generous,
};

/**
 * The real app on a database of its own, with a temporary DATA_DIR, logging errors to a list.
 * Rate limits are generous unless the test sets them; environment values go through loadConfig.
 */
export async function createTestApp(options: { env?: Record<string, string>; build?: BuildOptions } = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-app-'));
  const config = loadConfig({ DATA_DIR: dataDir, SEED_DEMO: '0', PUBLIC_URL: 'http://localhost:3000', ...options.env });
  const database = options.build?.database ?? (await openTestDatabase());
  const errors: LoggedEntry[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) {
        if (!line.trim()) continue;
        const entry = JSON.parse(line) as LoggedEntry;
        if (entry.level >= 50) errors.push(entry);
      }
      done();
    },
  });
  const app = await build(config, {
    logger: { level: 'error', stream },
    rateLimits: GENEROUS_LIMITS,
    rateLimitNamespace: `rl-test-${process.pid}-${Math.random().toString(36).slice(2)}:`,
    webDist: path.join(dataDir, 'no-web'),
    // Tests write rows straight to the database; a list cache would hide them. The cache has its own test.
    listCacheTtlMs: 0,
    // Tests poll game servers by hand (pollDue), so timing never decides a result.
    pollerTickMs: 0,
    // Every test account comes from 127.0.0.1: the hold rules have their own tests.
    holdRules: NO_HOLDS,
    ...options.build,
    database,
  });
  const testApp: TestApp = {
    app,
    config,
    dataDir,
    errors,
    takeErrors: () => errors.splice(0, errors.length),
    close: async () => {
      live.delete(testApp);
      await app.close();
      if (!options.build?.database) await database.close();
      // Retried: a file appearing while the folder is removed fails it with ENOTEMPTY (seen once
      // with a message the mail outbox wrote as the app closed, before closing waited for mail).
      fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    },
  };
  live.add(testApp);
  return testApp;
}
