// `npm run test:hardening`: the hardening suite in full, on the embedded database and, when
// TEST_DATABASE_URL is set, on PostgreSQL. Prints the summary table and writes hardening/results.json.
import { ensureChromium, ensureDependencies, ensureRedis, ensureWebBuild, run } from './lib/ensure.mjs';

ensureDependencies();
await ensureRedis();
// The stored-XSS rows open the built web app in Chromium.
ensureChromium();
ensureWebBuild();
const config = ['vitest', 'run', '--config', 'vitest.hardening.config.ts'];
let status = run('npx', config, { env: { TEST_DATABASE_URL: '', HARDENING_SCALE: 'full' }, allowFailure: true });
if (process.env.TEST_DATABASE_URL) status ||= run('npx', config, { env: { HARDENING_SCALE: 'full' }, allowFailure: true });
process.exit(status);
