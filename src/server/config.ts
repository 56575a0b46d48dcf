import { z } from 'zod';
import net from 'node:net';
import path from 'node:path';
import ipaddr from 'ipaddr.js';

/**
 * One exact loopback target as the address guard's allow-list takes it: `127.0.0.1:25565` or
 * `[::1]:30120`. No names, ranges, zones or missing ports: each entry lets through one listener
 * on this machine, never a name that could resolve elsewhere or a whole network.
 */
function isLoopbackTarget(entry: string): boolean {
  const m = /^\[([\da-f:.]+)\]:(\d{1,5})$/i.exec(entry) ?? /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/.exec(entry);
  if (!m || net.isIP(m[1]!) !== (entry.startsWith('[') ? 6 : 4)) return false;
  const port = Number(m[2]);
  return ipaddr.parse(m[1]!).range() === 'loopback' && port >= 1 && port <= 65535;
}

/** Comma-separated loopback `ip:port` targets; each other entry is listed as its own problem. */
const loopbackTargets = z.string().transform((value, ctx) => {
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isLoopbackTarget(entry)) ctx.addIssue({ code: 'custom', message: `${entry || 'an empty entry'} is not a loopback ip:port` });
  }
  return entries;
});

/** Environment variables (listed in the README's Configuration), parsed once at start-up. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional(),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' }).optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w.:-]{1,64}$/, 'must be 1 to 64 letters, digits, _ . : or -')
    .optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ADMIN_USERNAME: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  ADMIN_EMAIL: z.email().optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z.string().min(3).default('no-reply@localhost'),
  STRIPE_SECRET_KEY: z.string().startsWith('sk_', 'must start with sk_').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_', 'must start with whsec_').optional(),
  STRIPE_API_URL: z.url().optional(),
  VAPID_PUBLIC_KEY: z.string().min(20).optional(),
  VAPID_PRIVATE_KEY: z.string().min(20).optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)/, 'must start with mailto: or https://')
    .optional(),
  SEED_DEMO: z.enum(['0', '1'], { error: 'must be 0 or 1' }).optional(),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2}|[\d.:a-fA-F/, ]+)$/, 'must be true, a number of hops, or proxy addresses')
    .optional(),
  GAME_POLL_SECONDS: z.coerce.number({ error: 'must be a number of seconds' }).int().min(30, 'must be at least 30').max(86400).default(180),
  HOLD_RULES: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  SHUTDOWN_DRAIN_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int()
    .min(0)
    .max(60_000, 'must be at most 60000')
    .default(5000),
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int()
    .min(1000, 'must be at least 1000')
    .max(300_000, 'must be at most 300000')
    .default(20_000),
  STARTUP_WAIT_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int()
    .min(0)
    .max(600_000, 'must be at most 600000')
    .default(60_000),
  PUSH_ENDPOINT_HOSTS: z
    .string()
    .regex(/^[\w.-]+(:\d+)?(,[\w.-]+(:\d+)?)*$/, 'must be host[:port] names separated by commas')
    .optional(),
  OUTBOUND_TEST_TARGETS: loopbackTargets.optional(),
  DISCORD_CLIENT_ID: z
    .string()
    .regex(/^\d{5,25}$/, "must be the Discord application's numeric client id")
    .optional(),
  DISCORD_CLIENT_SECRET: z.string().min(8, 'must be the Discord application’s client secret').optional(),
  DISCORD_API_URL: z
    .url({ error: 'must be a URL' })
    .refine(
      (u) => u.startsWith('https://') || /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(u),
      'must be https:// (plain http only for a local test provider on loopback)',
    )
    .default('https://discord.com'),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  METRICS_PORT: z.coerce.number({ error: 'must be a port number' }).int().min(1).max(65535).optional(),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_EVERY_HOURS: z.coerce
    .number({ error: 'must be a whole number of hours' })
    .int('must be a whole number of hours')
    .min(1, 'must be at least 1')
    .max(8760, 'must be at most 8760 (a year)')
    .optional(),
  BACKUP_KEEP: z.coerce.number({ error: 'must be a number of archives' }).int().min(0).max(10_000).default(7),
});

/** Rules across variables, checked on the raw values so they are listed alongside every other problem. */
function crossFieldProblems(env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  if (Boolean(env.ADMIN_USERNAME) !== Boolean(env.ADMIN_PASSWORD))
    problems.push('ADMIN_PASSWORD: ADMIN_USERNAME and ADMIN_PASSWORD go together');
  if (env.ADMIN_PASSWORD !== undefined && env.ADMIN_PASSWORD.length < 8) problems.push('ADMIN_PASSWORD: must be at least 8 characters');
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY))
    problems.push('VAPID_PRIVATE_KEY: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together');
  // Payments are fulfilled only from signed webhooks: a key without the secret would take money and credit nothing.
  if (Boolean(env.DISCORD_CLIENT_ID) !== Boolean(env.DISCORD_CLIENT_SECRET))
    problems.push('DISCORD_CLIENT_SECRET: DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET go together');
  if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET)
    problems.push('STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY (purchases are credited only from signed Stripe webhooks)');
  if (env.METRICS_PORT !== undefined && Number(env.METRICS_PORT) === Number(env.PORT ?? 3000))
    problems.push('METRICS_PORT: must differ from PORT (it is a listener of its own, on 127.0.0.1)');
  return problems;
}

/** Resolved configuration the app is built from. */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** What starts every Redis key and channel of this deployment (undefined: derived from the database's name). */
  redisPrefix: string | undefined;
  jwtSecret: string | undefined;
  admin: { username: string; password: string; email: string | undefined } | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  stripe: { secretKey: string | undefined; webhookSecret: string | undefined; apiUrl: string | undefined };
  vapid: { publicKey: string; privateKey: string; subject: string | undefined } | undefined;
  /** undefined: seed when a new embedded database is created. */
  seedDemo: boolean | undefined;
  /** Push services allowed besides the browsers' own (tests add their local endpoint). */
  pushEndpointHosts: string[];
  /**
   * Exact loopback `ip:port` targets the outbound address guard lets game queries, webhooks and
   * Votifier reach (local test servers); empty in production.
   */
  outboundTestTargets: string[];
  /** Sign in with Discord: on when the application's id and secret are set. */
  discord: { clientId: string; clientSecret: string; apiUrl: string } | undefined;
  /** How often each game server is asked for its players. */
  gamePollSeconds: number;
  /**
   * On SIGTERM: how long the instance reports not-ready while still serving (a load balancer stops
   * sending to it), and how long it may then take to finish its requests and close before it exits.
   */
  shutdown: { drainMs: number; timeoutMs: number };
  /**
   * How long a starting instance waits for its search index's first load before it listens (lists
   * are answered from it; by SQL until then, slowly at scale). Past it, it listens anyway and
   * `/api/ready` says 503 until the load is done.
   */
  startupWaitMs: number;
  /** Whether suspicious votes and joins are held for review (off: every one counts at once). */
  holdRules: boolean;
  /** Fastify's trustProxy: who may set X-Forwarded-For (rate limits key on the client IP). */
  trustProxy: boolean | number | string;
  /**
   * `GET /metrics` (Prometheus): on the app's port with `Authorization: Bearer <token>` when
   * `token` is set, and without one on 127.0.0.1:`port` when that is set.
   */
  metrics: { token: string | undefined; port: number | undefined };
  /**
   * Backups (`npm run backup`, and scheduled ones when `everyHours` is set): the folder the archives
   * go to, and how many of the newest to keep there after each one (0: all).
   */
  backup: { dir: string; everyHours: number | undefined; keep: number };
}

/** Thrown with every problem of the environment listed, one per line. */
export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** Parses the environment; empty strings count as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.') || 'env'}: ${i.message}`)),
    ...crossFieldProblems(cleaned),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    jwtSecret: e.JWT_SECRET,
    admin:
      e.ADMIN_USERNAME && e.ADMIN_PASSWORD ? { username: e.ADMIN_USERNAME, password: e.ADMIN_PASSWORD, email: e.ADMIN_EMAIL } : undefined,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    stripe: { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiUrl: e.STRIPE_API_URL },
    vapid:
      e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
        ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY, subject: e.VAPID_SUBJECT }
        : undefined,
    seedDemo: e.SEED_DEMO === undefined ? undefined : e.SEED_DEMO === '1',
    pushEndpointHosts: e.PUSH_ENDPOINT_HOSTS ? e.PUSH_ENDPOINT_HOSTS.split(',') : [],
    outboundTestTargets: e.OUTBOUND_TEST_TARGETS ?? [],
    discord:
      e.DISCORD_CLIENT_ID && e.DISCORD_CLIENT_SECRET
        ? { clientId: e.DISCORD_CLIENT_ID, clientSecret: e.DISCORD_CLIENT_SECRET, apiUrl: e.DISCORD_API_URL }
        : undefined,
    gamePollSeconds: e.GAME_POLL_SECONDS,
    shutdown: { drainMs: e.SHUTDOWN_DRAIN_MS, timeoutMs: e.SHUTDOWN_TIMEOUT_MS },
    startupWaitMs: e.STARTUP_WAIT_MS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    holdRules: e.HOLD_RULES === 'on',
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT },
    backup: {
      dir: path.resolve(e.BACKUP_DIR ?? path.join(e.DATA_DIR, 'backups')),
      everyHours: e.BACKUP_EVERY_HOURS,
      keep: e.BACKUP_KEEP,
    },
  };
}
