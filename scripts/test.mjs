// `npm test`: the whole suite. Installs what it lacks, then typecheck, lint, the integration
// tests on the embedded database (and on PostgreSQL when TEST_DATABASE_URL is set), the
// production build and the browser journeys. Ends with one line: "N passed, N failed".
//   --skip-e2e     leave out the browser journeys
//   --skip-checks  leave out typecheck and lint
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, ensureChromium, ensureDependencies, ensureNginx, ensureRedis, ensureWebBuild, run } from './lib/ensure.mjs';

const args = new Set(process.argv.slice(2));
const results = [];

function vitest(label, config, env = {}) {
  const report = path.join(ROOT, 'test-results', `${label}.json`);
  fs.mkdirSync(path.dirname(report), { recursive: true });
  fs.rmSync(report, { force: true });
  console.log(`\n› ${label}`);
  const status = run('npx', ['vitest', 'run', '--config', config, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
    env,
    allowFailure: true,
  });
  const summary = fs.existsSync(report)
    ? JSON.parse(fs.readFileSync(report, 'utf8'))
    : { numPassedTests: 0, numFailedTests: 0, numTotalTests: 0 };
  // A run that failed without counting a failed test (a crash, a failing hook) still counts as a failure.
  const failed = summary.numFailedTests + (status !== 0 && summary.numFailedTests === 0 ? 1 : 0);
  results.push({ label, passed: summary.numPassedTests, failed, status });
}

ensureDependencies();
await ensureRedis();
if (!args.has('--skip-checks')) {
  console.log('\n› typecheck');
  run('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
  console.log('› lint');
  run('npx', ['eslint', '.']);
  run('npx', ['prettier', '--check', '--log-level', 'warn', '.']);
}

vitest('integration-embedded', 'vitest.config.ts', { TEST_DATABASE_URL: '' });
if (process.env.TEST_DATABASE_URL) vitest('integration-postgres', 'vitest.config.ts');
// `npm run bench` on tiny embedded data, so it never rots: fails on errors, answers outside 2xx or
// counters that differ from their rows, never on speed.
console.log('\n› bench-quick');
const bench = run('node', ['--import', 'tsx', 'bench/run.ts', '--quick'], { allowFailure: true, env: { DATABASE_URL: '' } });
results.push({ label: 'bench-quick', passed: bench === 0 ? 1 : 0, failed: bench === 0 ? 0 : 1, status: bench });
// Two app processes on one PostgreSQL and one Redis, the quick benchmark split across both: no
// errors, votes counted once, each instance showing the other's votes.
if (process.env.TEST_DATABASE_URL) {
  console.log('\n› bench-instances-quick');
  const instances = run('node', ['--import', 'tsx', 'bench/run.ts', '--quick', '--instances', '2'], {
    allowFailure: true,
    env: { DATABASE_URL: process.env.TEST_DATABASE_URL, REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' },
  });
  results.push({ label: 'bench-instances-quick', passed: instances === 0 ? 1 : 0, failed: instances === 0 ? 0 : 1, status: instances });
  // nginx in front of two app processes under a small load: each restarted in turn with no failed
  // request and every acknowledged write stored and counted, then one killed with SIGKILL failing
  // only the requests in flight on it (`npm run test:ops` runs it longer, on more data).
  console.log('\n› ops-quick');
  ensureNginx();
  const ops = run('node', ['--import', 'tsx', 'bench/ops/run.ts', '--quick'], {
    allowFailure: true,
    env: { DATABASE_URL: process.env.TEST_DATABASE_URL, REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' },
  });
  results.push({ label: 'ops-quick', passed: ops === 0 ? 1 : 0, failed: ops === 0 ? 0 : 1, status: ops });
}
// The hardening suite, bounded: every attack once or a few times (`npm run test:hardening` runs it in full).
// Its stored-XSS rows open the built web app in Chromium, as the browser journeys do.
ensureChromium();
ensureWebBuild({ force: true });
vitest('hardening-embedded', 'vitest.hardening.config.ts', { TEST_DATABASE_URL: '', HARDENING_SCALE: 'bounded' });
if (process.env.TEST_DATABASE_URL) vitest('hardening-postgres', 'vitest.hardening.config.ts', { HARDENING_SCALE: 'bounded' });

if (!args.has('--skip-e2e')) {
  vitest('browser', 'vitest.e2e.config.ts');
}

console.log('');
for (const r of results) console.log(`  ${r.label}: ${r.passed} passed, ${r.failed} failed`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || results.some((r) => r.status !== 0) ? 1 : 0);
