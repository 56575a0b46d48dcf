import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { DEFAULT_RATE_LIMITS } from '../src/server/plugins/rate-limits';
import { createTokenService } from '../src/server/modules/auth';
import { BENCH_JWT_SECRET, ROOT, restWaiter, startApp, type AppProcess } from './lib/app-process';
import { READ_HEADERS, combine, load, type Measured, type RequestSpec } from './lib/load';
import { fmt, writeResults } from './lib/output';
import { cycle, searchKinds } from './lib/search-mix';
import { hotReads, readBenchData } from './lib/targets';
import { accepted, countVoterRows, voteRequests } from './lib/votes';
import { crossInstanceFreshness, type Freshness } from './lib/freshness';
import type { PreparedDatabase } from './seed/database';
import { checkServerCounters } from './seed/seed';

/**
 * `npm run bench -- --instances N`: N app processes on one PostgreSQL and one Redis, as behind a
 * load balancer, every load split across them (each gets its share of the connections). Checks
 * what several instances must keep true: no errors, every vote counted once and every counter
 * equal to its rows, and each instance showing the counters of votes that went through the
 * others (its cached pages and lists dropped) within a few seconds. Speed is printed, not judged:
 * the targets are one instance's (decision 021).
 */
/** Servers whose pages every instance caches, then must show with the counters of votes through any instance. */
const WATCHED = 200;
/** As many on tiny data (400 servers): fewer, so the check fits the caches' lifetime on a busy test machine. */
const WATCHED_QUICK = 60;

/** One target's load over every instance at once. */
type Row = Measured & { target: string };

/** A player (not an owner, not one of the voters), picked afresh each run. */
async function pickPlayer(prepared: PreparedDatabase): Promise<number> {
  const handle = await prepared.open();
  try {
    const row = await sql<{ id: number }>`
      SELECT id FROM users WHERE role = 'player' AND id < ${prepared.facts.voterIds[0]} ORDER BY random() LIMIT 1`.execute(handle.db);
    return Number(row.rows[0]?.id ?? prepared.facts.voterIds[0]);
  } finally {
    await handle.close();
  }
}

/**
 * One player's joins sent to the instances in turn, each from an address of its own: the per-user
 * limit counts them together in Redis, so exactly that many get past it whichever instance they
 * reach. Answers the requests let through, those refused with 429 and any other answer.
 */
async function sharedLimit(apps: readonly AppProcess[], userId: number, visible: readonly number[]) {
  const token = await createTokenService(BENCH_JWT_SECRET).sign({ userId, version: 0 });
  const limit = DEFAULT_RATE_LIMITS.votesPerUser.max;
  // A /24 of 172.16.0.0/12 of this run's own: per-address and per-network limits stay out of it.
  const network = `172.${16 + Math.floor(Math.random() * 16)}.${Math.floor(Math.random() * 256)}`;
  const statuses: number[] = [];
  for (let k = 0; k < limit + 10; k++) {
    const server = visible[(k * 104_729 + userId) % visible.length]!;
    const response = await fetch(`${apps[k % apps.length]!.baseUrl}/api/servers/${server}/join`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': `${network}.${k}` },
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  // Let through: counted (200) or refused by the route itself (409, joined before); anything else is a fault.
  const passed = statuses.filter((s) => s === 200 || s === 409).length;
  const refused = statuses.filter((s) => s === 429).length;
  return { limit, passed, refused, other: statuses.length - passed - refused };
}

export async function runInstances(options: {
  prepared: PreparedDatabase;
  count: number;
  seconds: number;
  connections: number;
  redisUrl: string;
  engine: string;
  /** A test: tiny data, results with the other test reports. */
  quick: boolean;
}): Promise<number> {
  const { prepared, count, seconds, connections } = options;
  const data = await readBenchData(prepared);
  const apps: AppProcess[] = [];
  const rows: Row[] = [];
  const problems: string[] = [];
  let fresh: Freshness | undefined;
  let limited: Awaited<ReturnType<typeof sharedLimit>> | undefined;
  let votesSent = 0;
  let voteOk = 0;
  const share = Math.max(1, Math.floor(connections / count));
  try {
    for (let i = 0; i < count; i++) {
      const app = await startApp(prepared.target, { redisUrl: options.redisUrl });
      apps.push(app);
      console.log(`Instance ${i + 1}: ${app.command} on ${app.baseUrl}, ready in ${fmt(app.startupMs)} ms`);
    }
    const drain = restWaiter(apps);
    // Every instance at once, each with its share of the connections, all drawing from one `next`.
    const split = async (target: string, spec: { request?: RequestSpec; next?: () => RequestSpec }, secs = seconds) => {
      const runs = await Promise.all(apps.map((app) => load({ baseUrl: app.baseUrl, seconds: secs, connections: share, ...spec })));
      await drain();
      return { target, ...combine(runs, { concurrent: true }) };
    };

    console.log(`\nHot reads split across ${count} instances, ${seconds} s, ${share} connections each:`);
    for (const r of hotReads(data.reviewed)) {
      const request = { path: r.path, headers: READ_HEADERS };
      await split('warm-up', { request }, 1);
      rows.push(await split(r.target, { request }));
      console.log(`  ${r.target.padEnd(30)} ${fmt(rows.at(-1)!.rps).padStart(7)} req/s`);
    }

    console.log(`\nUncached search mix split across ${count} instances, ${seconds} s each:`);
    for (const kind of searchKinds(prepared.facts.rareWords)) {
      const queries = cycle(kind.queries);
      const next = () => ({ path: queries.next(), headers: READ_HEADERS });
      await split('warm-up', { next }, 1);
      rows.push(await split(kind.name, { next }));
      console.log(`  ${kind.name.padEnd(30)} ${fmt(rows.at(-1)!.rps).padStart(7)} req/s  p99 ${fmt(rows.at(-1)!.p99, 1)} ms`);
    }

    // A player the votes never use, picked afresh each run: the per-user limit's window outlasts a run in Redis.
    const player = await pickPlayer(prepared);
    limited = await sharedLimit(apps, player, data.visible);
    console.log(
      `\nOne player's ${limited.passed + limited.refused} joins over ${count} instances: ${limited.passed} let through, ${limited.refused} refused (limit ${limited.limit} a minute)`,
    );

    const votes = await voteRequests(prepared.facts.voterIds, data.visible);
    console.log(`\nVotes split across ${count} instances by ${fmt(votes.voters)} distinct users, ${seconds} s:`);
    await drain(options.quick ? 2 : 14);
    rows.push(await split('votes (like, distinct users)', { next: votes.next }));
    votesSent = votes.sent();
    voteOk = accepted(rows.at(-1)!.statuses);
    console.log(`  ${fmt(rows.at(-1)!.rps)} votes/s, p99 ${fmt(rows.at(-1)!.p99, 1)} ms`);

    const handle = await prepared.open();
    try {
      const truth = async (ids: readonly number[]) => {
        const result = await sql<{ id: number; likes: number; dislikes: number }>`
          SELECT id, likes, dislikes FROM servers WHERE id = ANY(${ids.map(Number)}::bigint[])`.execute(handle.db);
        return new Map(result.rows.map((r) => [Number(r.id), { likes: Number(r.likes), dislikes: Number(r.dislikes) }]));
      };
      // A busy machine can make the check outlast the caches' lifetime: it proves nothing then, and
      // runs again on other servers, at most three times.
      for (let attempt = 0; attempt < 3 && (!fresh || fresh.inconclusive); attempt++) {
        if (fresh) console.log(`  (${fresh.inconclusive}: looking again)`);
        fresh = await crossInstanceFreshness(apps, votes, options.quick ? WATCHED_QUICK : WATCHED, truth);
        voteOk += fresh.accepted;
        if (fresh.failed > 0) problems.push(`${fresh.failed} of the freshness check's ${fresh.sent} votes were answered outside 2xx`);
      }
    } finally {
      await handle.close();
    }
    votesSent = votes.sent();
  } catch (error) {
    // What the apps said is the first thing to read when a request failed outright.
    for (const [i, app] of apps.entries())
      console.log(`\nInstance ${i + 1} output (LOG_LEVEL=warn), last lines:\n${app.output().trim().split('\n').slice(-20).join('\n')}`);
    throw error;
  } finally {
    for (const app of apps) await app.stop();
  }
  const outputs = apps.map((app) => app.output().trim());

  const handle = await prepared.open();
  let counters: { total: number; problems: string[] };
  let written: number;
  try {
    counters = await checkServerCounters(handle.db);
    written = (await countVoterRows(handle.db, prepared.facts.voterIds)) - data.votersBefore;
  } finally {
    await handle.close();
    prepared.dispose();
  }
  if (counters.total > 0) problems.push(`${counters.total} counters differ from their rows:\n    ${counters.problems.join('\n    ')}`);
  if (written < voteOk || written > votesSent)
    problems.push(`the instances accepted ${voteOk} of ${votesSent} votes sent but ${written} vote rows were written`);
  for (const r of rows) {
    if (r.errors + r.non2xx > 0) problems.push(`${r.target}: ${r.errors} errors, ${r.non2xx} answers outside 2xx`);
    if (r.requests === 0) problems.push(`${r.target}: no answer within ${seconds} s`);
  }
  if (limited && (limited.passed !== limited.limit || limited.other > 0))
    problems.push(
      `the per-user limit of ${limited.limit} let ${limited.passed} of one player's requests through across ${count} instances (${limited.other} answered neither 200, 409 nor 429)`,
    );
  if (fresh?.inconclusive) problems.push(`the check of what each instance shows proves nothing: ${fresh.inconclusive}`);
  fresh?.instances.forEach((f, i) => {
    if (f.stale.length > 0)
      problems.push(
        `instance ${i + 1} still showed other counters than the database for ${f.stale.length} servers ${fmt(f.ms)} ms after the votes`,
      );
  });

  const lines = ['| target | req/s (all instances) | p50 ms | p99 ms | errors |', '|---|---:|---:|---:|---:|'];
  for (const r of rows) lines.push(`| ${r.target} | ${fmt(r.rps)} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${r.errors + r.non2xx} |`);
  if (limited)
    lines.push(
      `| one player's joins over all instances: let through (limit ${limited.limit}) / refused | ${limited.passed} / ${limited.refused} | | | |`,
    );
  apps.forEach((app, i) => {
    lines.push(`| instance ${i + 1}: start-up, peak RSS | ${fmt(app.startupMs)} ms, ${fmt(app.peakRssMb())} MB | | | |`);
    const seen = fresh?.instances[i];
    if (seen)
      lines.push(
        `| instance ${i + 1}: its cached pages of ${options.quick ? WATCHED_QUICK : WATCHED} servers voted on through either instance, and its top 10, against the database | ${seen.stale.length === 0 ? `equal ${fmt(seen.ms)} ms after the votes` : `${seen.stale.length} still differed`} | | | |`,
      );
  });
  const output = lines.join('\n');
  console.log(`\n${output}\n`);
  console.log(
    counters.total === 0
      ? `Counters: every counter equals its rows (${fmt(written)} votes added through ${count} instances).`
      : 'Counters: MISMATCH.',
  );

  const resultsFile = options.quick
    ? path.join(ROOT, 'test-results', 'bench-instances-quick.json')
    : path.join(ROOT, 'bench', 'results-instances.json');
  const results = {
    at: new Date().toISOString(),
    mode: `${count} instances${options.quick ? ', quick' : ''}`,
    engine: options.engine,
    sizes: prepared.facts.sizes,
    secondsPerTarget: seconds,
    connectionsPerInstance: share,
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
    instances: apps.map((app, i) => ({
      startupMs: Math.round(app.startupMs),
      peakRssMb: Math.round(app.peakRssMb()),
      freshAfterMs: fresh && Math.round(fresh.instances[i]!.ms),
    })),
    rows,
    counters: { mismatches: counters.total, votesSent, votesAccepted: voteOk, voteRowsWritten: written },
    sharedLimit: limited,
    problems,
    table: output,
  };
  await writeResults(resultsFile, results);
  console.log(`Results: ${path.relative(ROOT, resultsFile)}`);
  if (problems.length > 0) {
    outputs.forEach((out, i) => {
      if (out) console.log(`\nInstance ${i + 1} output (LOG_LEVEL=warn), last lines:\n${out.split('\n').slice(-10).join('\n')}`);
    });
    console.error(`✖ ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
    return 1;
  }
  console.log(`✓ ${count} instances: no errors, every vote counted once, every instance showed the others' votes, one limit for all`);
  return 0;
}
