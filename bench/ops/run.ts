import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureNginx } from '../../scripts/lib/ensure.mjs';
import { ROOT, freePort } from '../lib/app-process';
import { writeResults } from '../lib/output';
import { byId } from './analyze';
import { checkDatabase } from './checks';
import { buildForRun, clock, opsInstance, stopAll, type OpsInstance } from './instance';
import { failTimeoutSeconds, startNginx, type Nginx } from './nginx';
import { judgeAndPrint } from './report';
import { FULL_OPS_SIZES, QUICK_OPS_SIZES, dropOpsDatabase, prepareOpsDatabase, type OpsDatabase } from './seed';
import { killOne, rollingRestart, secs, type StageEnv } from './stages';
import { requestMix, type Outcome } from './traffic';

/**
 * `npm run test:ops`: nginx in front of two app instances on one PostgreSQL and one Redis, under a
 * bounded load of reads, likes, joins and daily votes. First each instance is restarted in turn
 * (SIGTERM, exit, start, ready, then the other one): no request may fail, and every acknowledged
 * write must be in the database with its counters. Then one instance is killed with SIGKILL:
 * only requests in flight on it may fail, no acknowledged write may be lost, and the other
 * instance carries on. Prints the requests by kind and status and the writes acknowledged, stored
 * and counted; exits 1 on any breach.
 */
const USAGE = `npm run test:ops -- [options]
  --quick        small data, a drain of 2 s, one round of restarts, a few seconds of load between
                 the steps (part of npm test on PostgreSQL)
  --rounds N     rounds of restarts, each restarting both instances (default 2; quick 1)
  --db NAME      the PostgreSQL database the run creates and drops (default rp_ops_<pid>; quick rp_ops_quick_<pid>)
  --logs DIR     keep nginx's configuration and logs, the instances' output and every request's outcome in DIR
Environment: DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL server, default
postgres://postgres@127.0.0.1:5432/postgres), REDIS_URL or TEST_REDIS_URL (default redis://127.0.0.1:6379).`;

async function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(2000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

async function check(prepared: OpsDatabase, outcomes: readonly Outcome[]) {
  const handle = await prepared.open();
  try {
    return await checkDatabase(handle.db, outcomes, prepared.voters);
  } finally {
    await handle.close();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      db: { type: 'string' },
      logs: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return (console.log(USAGE), 0);
  const quick = values.quick === true;
  const rounds = Number(values.rounds ?? (quick ? 1 : 2));
  // The process id keeps two runs on one PostgreSQL server (two `npm test` at once) apart.
  const dbName = values.db ?? `${quick ? 'rp_ops_quick' : 'rp_ops'}_${process.pid}`;
  if (!Number.isSafeInteger(rounds) || rounds < 1 || rounds > 10) return (console.error(`--rounds takes 1 to 10.\n\n${USAGE}`), 2);
  const adminUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL || process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
  // The production default drain, or a short one in the quick run (nginx's timeouts follow it).
  const drainMs = quick ? 2000 : 5000;
  const load = quick ? { connections: 8, rate: 150 } : { connections: 16, rate: 300 };

  ensureNginx();
  if (!(await redisAnswers(redisUrl))) return (console.error(`✖ Redis does not answer at ${redisUrl}.`), 1);
  const started = clock();
  const build = buildForRun();
  const problems: string[] = [];
  const events: string[] = [];
  let instances: OpsInstance[] = [];
  let nginx: Nginx | undefined;
  let outcomes: Outcome[] = [];
  try {
    const sizes = quick ? QUICK_OPS_SIZES : FULL_OPS_SIZES;
    const seeding = clock();
    const prepared = await prepareOpsDatabase(adminUrl, dbName, sizes);
    console.log(
      `PostgreSQL database ${dbName}: ${sizes.servers} servers, ${sizes.regulars} earlier players, ${sizes.voters} players writing during the load (seeded in ${secs(clock() - seeding)})`,
    );
    // A Redis prefix of this run's own: rate-limit counters of an earlier run do not carry over.
    const settings = { entry: build.entry, databaseUrl: prepared.url, redisUrl, redisPrefix: `ops-${process.pid}-${Date.now()}:`, drainMs };
    instances = [opsInstance('A', await freePort(), settings), opsInstance('B', await freePort(), settings)];
    for (const i of instances) console.log(`Instance ${i.name} on ${i.address}: /api/ready 200 after ${secs(await i.start())}`);
    const running = await startNginx({ port: await freePort(), upstreams: instances.map((i) => i.address), drainMs });
    nginx = running;
    console.log(`nginx on ${running.url} in front of both (SHUTDOWN_DRAIN_MS ${drainMs}, fail_timeout ${failTimeoutSeconds(drainMs)} s)`);
    const env: StageEnv = {
      instances,
      nginx: running,
      mix: await requestMix(prepared.voters, prepared.visible),
      load,
      settleMs: quick ? 1500 : 3000,
      drainMs,
      // nginx counts fail_timeout in whole seconds from an instance's last refused connection, which
      // may come just before it listens: it tries the instance again only once more than that passed.
      rejoinMs: (failTimeoutSeconds(drainMs) + 2) * 1000,
      event: (line) => (events.push(line), console.log(`  ${line}`)),
    };

    console.log(
      `\nRolling restart under load (at most ${load.rate} requests a second on ${load.connections} connections), ${rounds} round(s):`,
    );
    const rolling = await rollingRestart(env, rounds);
    problems.push(...rolling.badExits);
    const rollingCheck = await check(prepared, rolling.outcomes);
    const [victim] = instances as [OpsInstance];
    console.log(`\nkill -9 of instance ${victim.name} under the same load:`);
    const crash = await killOne(env, victim);
    outcomes = [...rolling.outcomes, ...crash.outcomes];
    const finalCheck = await check(prepared, outcomes);

    console.log('');
    const judged = judgeAndPrint({
      rolling,
      crash,
      killed: victim,
      names: new Map(instances.map((i) => [i.address, i.name])),
      log: byId(running.log()),
      rollingCheck,
      finalCheck,
    });
    problems.push(...judged.problems);
    const resultsFile = path.join(ROOT, 'test-results', quick ? 'ops-quick.json' : 'ops.json');
    await writeResults(resultsFile, {
      at: new Date().toISOString(),
      mode: quick ? 'quick' : 'full',
      seconds: Math.round((clock() - started) / 1000),
      drainMs,
      load,
      rounds,
      events,
      requests: [judged.rolling, judged.crash].map((s) => ({
        stretch: s.name,
        total: s.total,
        failed: s.failures.length,
        byKind: Object.fromEntries([...s.byKind].map(([k, m]) => [k, Object.fromEntries(m)])),
      })),
      kill: { ...judged.kill, unexplained: judged.kill.unexplained.length },
      nginxErrors: { rolling: judged.rollingErrors, kill: judged.crashErrors },
      writes: { rolling: rollingCheck, final: finalCheck },
      nginxConfig: running.config,
      problems,
    });
    console.log(`\nResults: ${path.relative(ROOT, resultsFile)} (${Math.round((clock() - started) / 1000)} s in all)`);
  } catch (error) {
    problems.push(`the run stopped: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    if (values.logs) {
      const dir = path.resolve(values.logs);
      fs.mkdirSync(dir, { recursive: true });
      nginx?.keepLogs(dir);
      for (const i of instances) fs.writeFileSync(path.join(dir, `instance-${i.name}.log`), i.output());
      fs.writeFileSync(path.join(dir, 'outcomes.json'), JSON.stringify({ events, outcomes }));
    }
    if (problems.length > 0) {
      for (const i of instances)
        console.log(`\nInstance ${i.name} output, last lines:\n${i.output().trim().split('\n').slice(-15).join('\n')}`);
      if (nginx) console.log(`\nnginx error log, last lines:\n${nginx.errors().trim().split('\n').slice(-15).join('\n')}`);
    }
    await stopAll(instances);
    await nginx?.stop();
    await dropOpsDatabase(adminUrl, dbName).catch((error: unknown) => console.error(`(could not drop ${dbName}: ${String(error)})`));
    build.dispose();
  }
  if (problems.length > 0) {
    console.error(`\n✖ ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
    return 1;
  }
  console.log(
    '\n✓ rolling restart: no request failed, every acknowledged write stored and counted; kill -9: only requests in flight on the killed instance failed, no acknowledged write lost',
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
