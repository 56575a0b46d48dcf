import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, restWaiter, startApp, type AppProcess } from './lib/app-process';
import { READ_HEADERS, alternate, combine, load, type Measured, type RequestSpec } from './lib/load';
import { fmt, writeResults } from './lib/output';
import { cycle, searchKinds } from './lib/search-mix';
import { hotReads, readBenchData } from './lib/targets';
import { accepted, countVoterRows, voteRequests } from './lib/votes';
import { runInstances } from './instances';
import { dropDatabase, prepareDatabase } from './seed/database';
import { FULL_SIZES, QUICK_SIZES, checkServerCounters, type SeedSizes } from './seed/seed';

/**
 * `npm run bench`: seeds a large data set (PostgreSQL with DATABASE_URL, else the embedded
 * database), starts the app as production runs it and a bare node:http server answering the same
 * bytes, and measures hot reads (A/B against that limit), the uncached search mix and votes
 * through the API. Prints one table, writes bench/results.json. How and why:
 * docs/decisions/021-benchmark.md.
 */
const USAGE = `npm run bench -- [options]
  --quick            tiny data on the embedded database, 1 s per target; fails on errors or
                     counters that differ from their rows, never on speed (part of npm test)
  --seconds N        seconds of load per side and target (default 6; quick 1)
  --reuse            keep an earlier seed of the same sizes in the benchmark database
  --db NAME          PostgreSQL database the benchmark (re)creates (default rp_bench)
  --redis            start the app with REDIS_URL (default redis://127.0.0.1:6379)
  --seed-only        seed, print the time and stop
  --instances N      N app processes on one PostgreSQL and one Redis, every load split across
                     them: checks errors, exact counters and that each instance shows the others'
                     votes (results go to bench/results-instances.json; with --quick, tiny data in
                     a database of its own run, dropped after; part of npm test on PostgreSQL)
  --only KINDS       measure only these kinds, comma-separated: read, search, vote (results go to
                     bench/results-partial.json, never over the full table)
  --servers N --users N --votes N --reviews N --joins N --boosts N --views N --voters N
                     sizes (default 100,000 servers, 200,000 users, 1,000,000 votes,
                     200,000 reviews, 100,000 joins)
Environment: DATABASE_URL (a PostgreSQL server; the benchmark works in its own database there).`;

const SIZE_FLAGS = ['servers', 'users', 'votes', 'reviews', 'joins', 'boosts', 'views', 'voters'] as const;

/** The issue's targets, checked in a full run (never in --quick). */
const TARGETS = { readRatio: 0.8, searchP99Ms: 20, votesPerSecond: 2000, rssMb: 300 };

interface Row {
  target: string;
  kind: 'read' | 'search' | 'vote';
  path: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  statuses: Record<string, number>;
  requests: number;
  limitRps?: number;
  ratio?: number;
  /** A search kind's distinct queries ran out and some came up again. */
  repeated?: boolean;
  meetsTarget?: boolean;
}

interface Recorded {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'content-length']);

/** One GET with exactly the headers the load will send, body kept as bytes (no decompression). */
function record(baseUrl: string, requestPath: string): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    http
      .get(baseUrl + requestPath, { headers: READ_HEADERS }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = String(v);
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('base64') });
        });
      })
      .on('error', reject);
  });
}

async function startBaseline(responsesFile: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench', 'baseline-server.mjs'), responsesFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the baseline server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

function table(rows: Row[], app: AppProcess | undefined, peakRssMb: number, quick: boolean): string {
  const lines = [
    '| target | req/s | p50 ms | p99 ms | errors | limit req/s | app/limit |' + (quick ? '' : ' target met |'),
    '|---|---:|---:|---:|---:|---:|---:|' + (quick ? '' : ':---:|'),
  ];
  for (const r of rows) {
    const bad = r.errors + r.non2xx;
    const errors =
      bad === 0
        ? '0'
        : `${bad} (${
            Object.entries(r.statuses)
              .filter(([c]) => !c.startsWith('2'))
              .map(([c, n]) => `${c}×${n}`)
              .join(' ') || 'conn'
          })`;
    lines.push(
      `| ${r.target}${r.repeated ? ' (queries repeated)' : ''} | ${fmt(r.rps)} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${errors} | ${fmt(r.limitRps)} | ${r.ratio === undefined ? '–' : r.ratio.toFixed(2)} |` +
        (quick ? '' : ` ${r.meetsTarget === undefined ? '' : r.meetsTarget ? '✓' : '✖'} |`),
    );
  }
  if (app) {
    const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
    const met = (ok: boolean) => (quick ? [] : [ok ? '✓' : '✖']);
    lines.push(row(['app start-up (spawn → /api/ready 200)', `${fmt(app.startupMs)} ms`, '', '', '', '', '', ...(quick ? [] : [''])]));
    lines.push(row(['app peak RSS', `${fmt(peakRssMb)} MB`, '', '', '', '', '', ...met(peakRssMb <= TARGETS.rssMb)]));
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      seconds: { type: 'string' },
      reuse: { type: 'boolean', default: false },
      db: { type: 'string', default: 'rp_bench' },
      redis: { type: 'boolean', default: false },
      'seed-only': { type: 'boolean', default: false },
      only: { type: 'string' },
      instances: { type: 'string' },
      help: { type: 'boolean', default: false },
      ...Object.fromEntries(SIZE_FLAGS.map((f) => [f, { type: 'string' as const }])),
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const quick = values.quick === true;
  const sizes: SeedSizes = { ...(quick ? QUICK_SIZES : FULL_SIZES) };
  for (const f of SIZE_FLAGS) {
    const v = (values as Record<string, unknown>)[f];
    if (typeof v === 'string') sizes[f] = Number(v.replace(/[_,]/g, ''));
  }
  if (Object.values(sizes).some((n) => !Number.isSafeInteger(n) || n < 0) || sizes.servers < 1 || sizes.users < 2) {
    console.error(`Sizes must be whole numbers (at least 1 server and 2 users).\n\n${USAGE}`);
    return 2;
  }
  const only = values.only ? new Set(values.only.split(',').map((k) => k.trim())) : undefined;
  if (only && [...only].some((k) => !['read', 'search', 'vote'].includes(k))) {
    console.error(`--only takes read, search or vote.\n\n${USAGE}`);
    return 2;
  }
  const measures = (kind: Row['kind']) => !only || only.has(kind);
  const seconds = Number(values.seconds ?? (quick ? 1 : 6));
  // Quick: a hot read's second is shared by the app and the baseline.
  const readSeconds = quick ? seconds / 2 : seconds;
  const slices = quick ? 1 : 2;
  // The quick run checks answers, not speed: fewer connections keep the embedded database's single
  // connection from queueing past the second the run lasts.
  const connections = quick ? 10 : 50;
  const instances = Number(values.instances ?? 1);
  if (!Number.isSafeInteger(instances) || instances < 1 || instances > 8) {
    console.error(`--instances takes 1 to 8.\n\n${USAGE}`);
    return 2;
  }
  // Several instances share one database server: the embedded database serves one process.
  if (instances > 1 && !process.env.DATABASE_URL) {
    console.error('--instances needs PostgreSQL: set DATABASE_URL (the benchmark works in its own database there).');
    return 2;
  }
  // The quick run is a test: it always uses its own embedded database, or its own PostgreSQL database.
  const adminUrl = quick && instances === 1 ? undefined : process.env.DATABASE_URL || undefined;
  // A quick run with instances is a test: a database of its own run (two at once on one server must
  // not drop each other's), dropped when it ends.
  const ownDatabase = quick && instances > 1 && values.db === 'rp_bench';
  const dbName = ownDatabase ? `rp_bench_quick_${process.pid}` : values.db!;
  const engine = adminUrl ? `PostgreSQL (${dbName})` : 'embedded PGlite';
  console.log(`Benchmark on ${engine}: ${SIZE_FLAGS.map((f) => `${sizes[f].toLocaleString('en-US')} ${f}`).join(', ')}`);

  const prepared = await prepareDatabase({ adminUrl, dbName, sizes, reuse: values.reuse === true });
  if (values['seed-only']) {
    prepared.dispose();
    return 0;
  }
  if (instances > 1) {
    if (only || values.redis) console.log('(--only and --redis are left out with --instances: every kind is measured, always with Redis)');
    const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
    try {
      return await runInstances({ prepared, count: instances, seconds, connections, redisUrl, engine, quick });
    } finally {
      if (ownDatabase && adminUrl) await dropDatabase(adminUrl, dbName);
    }
  }

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-bench-run-'));
  const rows: Row[] = [];
  let app: AppProcess | undefined;
  let baseline: { url: string; child: ChildProcess } | undefined;
  let peakRssMb = 0;
  const problems: string[] = [];
  let voteOk = 0;
  let votesSent = 0;
  let votersBefore = 0;
  try {
    const data = await readBenchData(prepared);
    const { visible, reviewed } = data;
    votersBefore = data.votersBefore;

    app = await startApp(prepared.target, { redisUrl: values.redis ? process.env.REDIS_URL || 'redis://127.0.0.1:6379' : undefined });
    console.log(`App: ${app.command}, ready in ${fmt(app.startupMs)} ms`);
    const drain = restWaiter([app]);

    const reads = hotReads(reviewed);

    // The baseline answers what the app answered, byte for byte.
    const recorded: Record<string, Recorded> = {};
    if (!measures('read')) reads.length = 0;
    for (const r of reads) recorded[r.path] = await record(app.baseUrl, r.path);
    const responsesFile = path.join(scratch, 'responses.json');
    fs.writeFileSync(responsesFile, JSON.stringify(recorded));
    baseline = await startBaseline(responsesFile);

    console.log(`\nHot reads, app and node:http baseline in turns, ${readSeconds} s a side, ${connections} connections:`);
    for (const r of reads) {
      const request: RequestSpec = { path: r.path, headers: READ_HEADERS };
      const result = await alternate({
        appUrl: app.baseUrl,
        baselineUrl: baseline.url,
        request,
        seconds: readSeconds,
        slices,
        warmUp: !quick,
        connections,
        drain,
      });
      const ratio = result.baseline ? result.app.rps / result.baseline.rps : undefined;
      rows.push({
        target: r.target,
        kind: 'read',
        path: r.path,
        ...pick(result.app),
        limitRps: result.baseline?.rps,
        ratio,
        meetsTarget: ratio === undefined ? undefined : ratio >= TARGETS.readRatio,
      });
      console.log(`  ${r.target.padEnd(30)} ${fmt(result.app.rps).padStart(7)} req/s  limit ${fmt(result.baseline?.rps).padStart(7)}`);
    }
    baseline.child.kill('SIGTERM');
    baseline = undefined;

    console.log(`\nUncached search mix (every request a different query), ${seconds} s each:`);
    for (const kind of measures('search') ? searchKinds(prepared.facts.rareWords) : []) {
      const queries = cycle(kind.queries);
      const next = () => ({ path: queries.next(), headers: READ_HEADERS });
      if (!quick) {
        await load({ baseUrl: app.baseUrl, seconds: 1, connections: 10, next });
        await drain();
      }
      const result = await load({ baseUrl: app.baseUrl, seconds, connections, next });
      await drain();
      rows.push({
        target: kind.name,
        kind: 'search',
        path: kind.queries[0]!,
        ...pick(result),
        repeated: queries.wrapped(),
        meetsTarget: result.p99 <= TARGETS.searchP99Ms,
      });
      console.log(`  ${kind.name.padEnd(30)} ${fmt(result.rps).padStart(7)} req/s  p99 ${fmt(result.p99, 1)} ms`);
    }

    if (measures('vote')) {
      // Votes: distinct users (kept free of votes by the seed), each liking servers it never voted on,
      // each request from its own address as a reverse proxy would report it.
      const requests = await voteRequests(prepared.facts.voterIds, visible);
      const voters = requests.voters;
      console.log(`\nVotes through the API by ${voters.toLocaleString('en-US')} distinct users, ${seconds} s:`);
      // Alone (`--only vote`) the app may still be loading its index and cards: votes measure the
      // app at rest. Cards start loading on a 2 s timer after the index, so rest must outlast it.
      if (!quick) await drain(14);
      const votes = combine([await load({ baseUrl: app.baseUrl, seconds, connections, next: requests.next })]);
      await drain();
      votesSent = requests.sent();
      voteOk = accepted(votes.statuses);
      rows.push({
        target: 'votes (like, distinct users)',
        kind: 'vote',
        path: 'POST /api/servers/{id}/like',
        ...pick(votes),
        meetsTarget: votes.rps >= TARGETS.votesPerSecond,
      });
      console.log(`  ${fmt(votes.rps)} votes/s, p99 ${fmt(votes.p99, 1)} ms`);
    }
  } finally {
    baseline?.child.kill('SIGTERM');
    if (app) {
      peakRssMb = app.peakRssMb();
      await app.stop();
      const output = app.output().trim();
      if (output) console.log(`\nApp output (LOG_LEVEL=warn), last lines:\n${output.split('\n').slice(-10).join('\n')}`);
    }
    fs.rmSync(scratch, { recursive: true, force: true });
  }

  // Every counter against its rows, and one like row for each vote the app accepted.
  const handle = await prepared.open();
  let counters: { total: number; problems: string[] };
  let voterRows: number;
  try {
    counters = await checkServerCounters(handle.db);
    voterRows = await countVoterRows(handle.db, prepared.facts.voterIds);
  } finally {
    await handle.close();
    prepared.dispose();
  }
  if (counters.total > 0) problems.push(`${counters.total} counters differ from their rows:\n    ${counters.problems.join('\n    ')}`);
  // Requests still in flight when the load stopped may have been written without their answer being
  // counted: between the accepted and the sent votes, never outside.
  const written = voterRows - votersBefore;
  const votesExact = written >= voteOk && written <= votesSent;
  if (!votesExact) problems.push(`the app accepted ${voteOk} of ${votesSent} votes sent but ${written} vote rows were written`);
  for (const r of rows) {
    if (r.errors + r.non2xx > 0) problems.push(`${r.target}: ${r.errors} errors, ${r.non2xx} answers outside 2xx`);
    if (r.requests === 0) problems.push(`${r.target}: no answer within ${seconds} s`);
  }

  const output = table(rows, app, peakRssMb, quick);
  console.log(`\n${output}\n`);
  console.log(
    counters.total === 0 && votesExact
      ? `Counters: every likes, dislikes, total_joins, total_boosts and views counter equals its rows (${fmt(written)} votes added).`
      : 'Counters: MISMATCH (see below).',
  );
  const missed = quick ? [] : rows.filter((r) => r.meetsTarget === false).map((r) => r.target);
  if (!quick && peakRssMb > TARGETS.rssMb) missed.push(`peak RSS ${fmt(peakRssMb)} MB`);

  const results = {
    at: new Date().toISOString(),
    mode: quick ? 'quick' : 'full',
    engine,
    sizes,
    seedSeconds: prepared.seedSeconds,
    secondsPerSide: seconds,
    connections,
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
    app: app ? { command: app.command, startupMs: Math.round(app.startupMs), peakRssMb: Math.round(peakRssMb) } : undefined,
    targets: TARGETS,
    rows,
    counters: { mismatches: counters.total, votesSent, votesAccepted: voteOk, voteRowsWritten: written },
    problems,
    missedTargets: missed,
    table: output,
  };
  // The quick run is a test: its results go with the other test reports, not over the full run's.
  const resultsFile = quick
    ? path.join(ROOT, 'test-results', 'bench-quick.json')
    : path.join(ROOT, 'bench', only ? 'results-partial.json' : 'results.json');
  await writeResults(resultsFile, results);
  console.log(`Results: ${path.relative(ROOT, resultsFile)}`);

  if (problems.length > 0) {
    console.error(`✖ ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
    return 1;
  }
  if (missed.length > 0) {
    console.error(`✖ Targets missed: ${missed.join(', ')}`);
    return 1;
  }
  console.log(quick ? '✓ quick benchmark: no errors, counters exact' : '✓ every target met');
  return 0;
}

function pick(m: Measured) {
  return { rps: m.rps, p50: m.p50, p99: m.p99, errors: m.errors, non2xx: m.non2xx, statuses: m.statuses, requests: m.requests };
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
