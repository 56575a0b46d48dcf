import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { ROOT, freePort, restWaiter, startApp, type AppProcess } from './lib/app-process';
import { lookupsBetween, readCacheLookups } from './lib/cache-stats';
import { record, startBaseline, type Recorded } from './lib/baseline';
import { checkAfterRun, type Sent } from './lib/checks';
import { measureReads, READ_RATIO_TARGET } from './lib/hot-read-ab';
import { linkPages, PAGE_P99_TARGET_MS } from './lib/link-pages';
import { load } from './lib/load';
import { LAG_TARGET_MS, readsDuringCampaign, TOP_10 } from './lib/mixed';
import { fmt, writeResults } from './lib/output';
import { parseOptions, SIZE_FLAGS } from './lib/options';
import { pick, table, type Kind, type Row } from './lib/report';
import { measureSearch } from './lib/search-mix';
import { hotReads, readBenchData } from './lib/targets';
import { VOTES_TARGET, votesAtVolume } from './lib/vote-volume';
import { accepted, runVotes } from './lib/votes';
import { runInstances } from './instances';
import { dropDatabase, prepareDatabase } from './seed/database';

/**
 * `npm run bench`: seeds a large data set (PostgreSQL with DATABASE_URL, else the embedded
 * database), starts the app as production runs it and a bare node:http server answering the same
 * bytes, and measures hot reads (A/B against that limit, alone and while votes stream), the
 * uncached search mix, server pages as shared links open them, and votes through the API. Prints
 * one table, writes bench/results.json. How and why: docs/decisions/021-benchmark.md.
 */
/** The targets, checked in a full run (never in --quick). */
const TARGETS = {
  readRatio: READ_RATIO_TARGET,
  searchP99Ms: 20,
  pageP99Ms: PAGE_P99_TARGET_MS,
  top10LagMs: LAG_TARGET_MS,
  votesPerSecond: VOTES_TARGET,
  rssMb: 300,
};

async function main(): Promise<number> {
  // Other work on a shared machine: its load when the run began and ended goes with the numbers.
  const loadAtStart = os.loadavg();
  const options = parseOptions(process.argv.slice(2));
  if (typeof options === 'number') return options;
  const { quick, sizes, seconds, volumeSeconds, voteRate, voteMix, seed, only, instances, values } = options;
  const measures = (kind: Kind) => !only || only.has(kind);
  // Quick: a hot read's second is shared by the app and the baseline.
  const readSeconds = quick ? seconds / 2 : seconds;
  const slices = quick ? 1 : 2;
  // The quick run checks answers, not speed: fewer connections keep the embedded database's single
  // connection from queueing past the second the run lasts.
  const connections = quick ? 10 : 50;
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
  console.log(
    `Benchmark on ${engine}: ${SIZE_FLAGS.map((f) => `${sizes[f].toLocaleString('en-US')} ${f}`).join(', ')}; seed ${seed ?? 'default'}`,
  );

  const prepared = await prepareDatabase({
    adminUrl,
    dbName,
    sizes,
    reuse: values.reuse === true,
    ...(seed === undefined ? {} : { seed }),
  });
  // The seed the data was drawn with, as the seeder recorded it (without --seed, its default).
  const seedUsed = prepared.facts.seed;
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
  const rssAfter: Partial<Record<Kind, number>> = {};
  const cacheStats: Partial<Record<Kind, ReturnType<typeof lookupsBetween>>> = {};
  const sent: Sent = { likes: { accepted: 0, sent: 0 }, daily: { accepted: 0, sent: 0 }, views: { accepted: 0, sent: 0 } };
  const data = await readBenchData(prepared);
  try {
    const metricsPort = values['cache-stats'] ? await freePort() : undefined;
    const redisUrl = values.redis ? process.env.REDIS_URL || 'redis://127.0.0.1:6379' : undefined;
    app = await startApp(prepared.target, { redisUrl, metricsPort });
    console.log(`App: ${app.command}, ready in ${fmt(app.startupMs)} ms`);
    const drain = restWaiter([app]);
    let lookups = metricsPort ? await readCacheLookups(metricsPort) : undefined;
    // When each scenario ended: the app's peak resident memory (which one raised it) and, with
    // --cache-stats, what each response cache answered during it.
    const scenarioEnded = async (kind: Kind) => {
      rssAfter[kind] = Math.round(app!.peakRssMb());
      if (!metricsPort || !lookups) return;
      const now = await readCacheLookups(metricsPort);
      cacheStats[kind] = lookupsBetween(lookups, now);
      console.log(`  cache lookups: ${JSON.stringify(cacheStats[kind])}`);
      lookups = now;
    };
    const reads = hotReads(data.reviewed);
    // One plan and cursor for every load that votes: no voter votes twice on a server, no address repeats.
    const votes = await runVotes(prepared.facts.voterIds, data.visible, data.topVoted);

    if (measures('read') || measures('mixed')) {
      // The baseline answers what the app answered, byte for byte.
      const recorded: Record<string, Recorded> = {};
      for (const r of reads) recorded[r.path] = await record(app.baseUrl, r.path);
      const responsesFile = path.join(scratch, 'responses.json');
      fs.writeFileSync(responsesFile, JSON.stringify(recorded));
      baseline = await startBaseline(responsesFile);
    }
    const ab = { appUrl: app.baseUrl, seconds: readSeconds, slices, warmUp: !quick, connections };
    if (measures('read')) {
      console.log(`\nHot reads, app and node:http baseline in turns, ${readSeconds} s a side, ${connections} connections:`);
      rows.push(...(await measureReads({ ...ab, reads, baselineUrl: baseline!.url, drain, kind: 'read' })));
      await scenarioEnded('read');
    }

    if (measures('search')) {
      console.log(`\nUncached search mix (every request a different query), ${seconds} s each:`);
      const rowsOf = await measureSearch({ baseUrl: app.baseUrl, rareWords: prepared.facts.rareWords, seconds, connections, quick, drain });
      rows.push(...rowsOf.map((row) => ({ ...row, meetsTarget: row.p99 <= TARGETS.searchP99Ms })));
      await scenarioEnded('search');
    }

    if (measures('mixed')) {
      console.log(`\nHot reads during a vote campaign (${fmt(voteRate)} votes/s streamed), A/B as above:`);
      await drain(quick ? 2 : 14);
      // Quick: the two lists votes drop, a second a side (the embedded database runs in the app's
      // thread, so a read may wait behind a vote for longer than half a second on a busy machine).
      const during = quick ? reads.filter((r) => r.path === TOP_10 || r.path === '/api/servers') : reads;
      const mixed = await readsDuringCampaign({
        ...ab,
        ...(quick ? { seconds } : {}),
        reads: during,
        baselineUrl: baseline!.url,
        votes,
        rate: voteRate,
        mix: voteMix,
        quick,
        html: reads.some((r) => r.path === '/'),
      });
      rows.push(...mixed.rows);
      const { statuses } = mixed.stream;
      sent.likes.accepted += accepted(statuses.like) + accepted(statuses.campaign);
      sent.daily.accepted += accepted(statuses.daily);
      await drain();
      await scenarioEnded('mixed');
    }
    baseline?.child.kill('SIGTERM');
    baseline = undefined;

    if (measures('page')) {
      console.log(`\nServer pages as a shared link opens them, ${seconds} s each, ${connections} connections:`);
      const pages = await linkPages({
        baseUrl: app.baseUrl,
        visible: data.visible,
        seconds,
        connections,
        warmUp: !quick,
        html: reads.some((r) => r.path === '/'),
        drain,
      });
      rows.push(...pages.rows);
      sent.views = { accepted: pages.viewsAccepted, sent: pages.viewsSent };
      await scenarioEnded('page');
    }

    if (measures('vote')) {
      // Alone (`--only vote`) the app may still be loading its index and cards: votes measure the
      // app at rest. Cards start loading on a 2 s timer after the index, so rest must outlast it.
      console.log(`\nVotes through the API by ${fmt(votes.plan.auth.length)} distinct users, ${seconds} s:`);
      if (!quick) await drain(14);
      const result = await load({ baseUrl: app.baseUrl, seconds, connections, next: votes.nextOf(() => 'like') });
      await drain();
      sent.likes.accepted += accepted(result.statuses);
      const row: Row = { target: 'votes (like, distinct users)', kind: 'vote', path: 'POST /api/servers/{id}/like', ...pick(result) };
      rows.push({ ...row, meetsTarget: result.rps >= TARGETS.votesPerSecond });
      console.log(`  ${fmt(result.rps)} votes/s, p99 ${fmt(result.p99, 1)} ms`);
      await scenarioEnded('vote');
    }

    if (measures('volume')) {
      console.log(`\nVotes at volume, ${volumeSeconds} s each, ${connections} connections:`);
      const volume = await votesAtVolume({
        baseUrl: app.baseUrl,
        votes,
        seconds: volumeSeconds,
        connections,
        rest: () => drain(quick ? 2 : 14),
      });
      rows.push(...volume.rows);
      sent.likes.accepted += volume.likesAccepted;
      await drain();
      await scenarioEnded('volume');
    }
    const built = votes.sent();
    sent.likes.sent = built.like + built.campaign;
    sent.daily.sent = built.daily;
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

  let checked: Awaited<ReturnType<typeof checkAfterRun>>;
  try {
    checked = await checkAfterRun(prepared, data, sent);
  } finally {
    prepared.dispose();
  }
  const problems = [...checked.problems];
  for (const r of rows) {
    if (r.errors + r.non2xx > 0) problems.push(`${r.target}: ${r.errors} errors, ${r.non2xx} answers outside 2xx`);
    if (r.requests === 0) problems.push(`${r.target}: no answer within ${seconds} s`);
    if (r.problem) problems.push(`${r.target}: ${r.problem}`);
  }

  const output = table(rows, app && { startupMs: app.startupMs, peakRssMb, rssTargetMb: TARGETS.rssMb }, quick, seedUsed);
  console.log(`\n${output}\n`);
  console.log(`Peak RSS after each scenario (MB): ${JSON.stringify(rssAfter)}`);
  console.log(
    `Load average of the machine (1 min): ${loadAtStart[0]!.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end.`,
  );
  console.log(checked.summary);
  const missed = quick ? [] : rows.filter((r) => r.meetsTarget === false).map((r) => r.target);
  if (!quick && peakRssMb > TARGETS.rssMb) missed.push(`peak RSS ${fmt(peakRssMb)} MB`);

  const results = {
    at: new Date().toISOString(),
    mode: quick ? 'quick' : 'full',
    engine,
    sizes,
    seed: seedUsed,
    seedSeconds: prepared.seedSeconds,
    secondsPerSide: seconds,
    volumeSeconds,
    voteRate,
    voteMix,
    connections,
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model,
      node: process.version,
      loadAverage: { atStart: loadAtStart, atEnd: os.loadavg() },
    },
    app: app
      ? { command: app.command, startupMs: Math.round(app.startupMs), peakRssMb: Math.round(peakRssMb), peakRssMbAfter: rssAfter }
      : undefined,
    targets: TARGETS,
    rows,
    ...(values['cache-stats'] ? { cacheLookups: cacheStats } : {}),
    counters: { mismatches: checked.mismatches, sent, written: checked.written },
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

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
