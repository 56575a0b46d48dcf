// `npm run lighthouse`: Lighthouse scores of the public pages, mobile and desktop, with Debian's Chromium.
//
//   npm run lighthouse                       builds the web app if needed, starts the app on the embedded
//                                            database with demo data in a temporary DATA_DIR, and stops it after
//   npm run lighthouse -- --url http://…     audits an app that is already running
//   npm run lighthouse -- --chrome /path     another Chromium (default /usr/bin/chromium, or CHROME_PATH)
//   npm run lighthouse -- --lang de          the pages in one of the site's languages (`?lang=de`)
//   npm run lighthouse -- --runs 5           each page five times (Lighthouse varies from run to run on a
//                                            shared machine: the table lists every run and the lowest score)
//   npm run lighthouse -- --form-factor mobile   one form factor only (mobile or desktop; both by default)
//   npm run lighthouse -- --out /tmp/lh.json     writes the results there instead of lighthouse/results.json
//   npm run lighthouse -- --help             prints this
//
// Audits `/`, `/home`, `/search` and the first server's page. Prints one table (the four category
// scores, first contentful paint, largest contentful paint, total blocking time) and writes
// lighthouse/results.json.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import * as prettier from 'prettier';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { ROOT, ensureChromium, ensureServerBuild, ensureWebBuild } from './lib/ensure.mjs';
import { SERVER_ENV, serverNodeFlags } from './lib/node-flags.mjs';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    chrome: { type: 'string', default: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
    out: { type: 'string', default: path.join(ROOT, 'lighthouse/results.json') },
    lang: { type: 'string' },
    runs: { type: 'string', default: '1' },
    'form-factor': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (args.help) {
  // The usage is this file's opening comment, so it has one text to keep up to date.
  const opening = fs.readFileSync(new URL(import.meta.url), 'utf8').split('\n');
  const comment = opening.slice(
    0,
    opening.findIndex((line) => !line.startsWith('//')),
  );
  console.log(comment.map((line) => line.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`✖ --runs takes a whole number of runs, not ${args.runs}.`);
  process.exit(1);
}
const formFactors = args['form-factor'] ? [args['form-factor']] : ['mobile', 'desktop'];
if (formFactors.some((formFactor) => formFactor !== 'mobile' && formFactor !== 'desktop')) {
  console.error(`✖ --form-factor is mobile or desktop, not ${args['form-factor']}.`);
  process.exit(1);
}

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts the server as production runs it (the compiled build) on a free port with demo data in a
 * temporary data directory; returns its URL and a stop function.
 */
async function startApp() {
  ensureWebBuild();
  await ensureServerBuild();
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-lighthouse-'));
  // Started as `npm start` starts it.
  const child = spawn(process.execPath, [...serverNodeFlags(), 'dist/server/server.js'], {
    cwd: ROOT,
    env: {
      ...SERVER_ENV,
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      SEED_DEMO: '1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode} before it was ready`);
    if (Date.now() > deadline) throw new Error(`the server was not ready at ${url} within 120 s`);
    const ready = await fetch(`${url}/api/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000).unref())]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, stop };
}

/** The first server of the default list: the audited server page. */
async function serverPath(base) {
  const res = await fetch(`${base}/api/servers?limit=1`);
  if (!res.ok) throw new Error(`GET /api/servers answered ${res.status}`);
  const body = await res.json();
  const first = (Array.isArray(body) ? body : (body.items ?? []))[0];
  if (!first?.id) throw new Error('the server list is empty: seed demo data (SEED_DEMO=1) or pass --url of an app with servers');
  return `/servers/${first.id}`;
}

function summarise(lhr) {
  const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const ms = (id) => Math.round(lhr.audits[id]?.numericValue ?? NaN);
  const failing = Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual')
    .map((a) => a.id);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpMs: ms('first-contentful-paint'),
    lcpMs: ms('largest-contentful-paint'),
    tbtMs: ms('total-blocking-time'),
    failing,
  };
}

/** One Lighthouse run; a failed trace (Lighthouse's NO_NAVSTART and the like) is retried twice. */
async function audit(url, formFactor, attempt = 1) {
  const flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES };
  const result = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
  const error = result ? result.lhr.runtimeError : { message: 'Lighthouse returned nothing' };
  if (!error) return result.lhr;
  if (attempt >= 3) throw new Error(`${url}: ${error.message}`);
  console.log(`… ${formFactor} ${url}: ${error.code ?? error.message}, again`);
  return audit(url, formFactor, attempt + 1);
}

// Debian's Chromium is installed when missing, as for the browser tests; another one is the caller's.
if (args.chrome === '/usr/bin/chromium') ensureChromium();
else if (!fs.existsSync(args.chrome)) {
  console.error(`✖ No browser at ${args.chrome}.`);
  process.exit(1);
}
const app = args.url ? { url: args.url.replace(/\/+$/, ''), stop: async () => {} } : await startApp();
const chrome = await chromeLauncher.launch({
  chromePath: args.chrome,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const rows = [];
try {
  const pages = ['/', '/home', '/search', await serverPath(app.url)];
  for (const formFactor of formFactors) {
    for (const page of pages) {
      for (let run = 1; run <= runs; run += 1) {
        const lhr = await audit(`${app.url}${page}${args.lang ? `?lang=${encodeURIComponent(args.lang)}` : ''}`, formFactor);
        const row = { page, formFactor, run, ...summarise(lhr) };
        rows.push(row);
        console.log(`✓ ${formFactor.padEnd(7)} ${page}${runs > 1 ? ` run ${run}` : ''}: performance ${row.performance}`);
      }
    }
  }
} finally {
  await chrome.kill();
  await app.stop();
}

const pageName = (page) => (page.startsWith('/servers/') ? '/servers/{id}' : page);
const header = `| page | form factor |${runs > 1 ? ' run |' : ''} performance | accessibility | best practices | SEO | FCP ms | LCP ms | TBT ms |`;
const table = [header, `|---|---|${runs > 1 ? '---:|' : ''}---:|---:|---:|---:|---:|---:|---:|`];
for (const r of rows) {
  table.push(
    `| \`${pageName(r.page)}\` | ${r.formFactor} |${runs > 1 ? ` ${r.run} |` : ''} ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${r.seo} | ${r.fcpMs} | ${r.lcpMs} | ${r.tbtMs} |`,
  );
}
console.log(`\n${table.join('\n')}\n`);
if (runs > 1) {
  // Every run counts: a page is as good as its worst run here.
  console.log('| page | form factor | performance, each run | lowest | TBT ms, each run |\n|---|---|---|---:|---|');
  for (const formFactor of formFactors) {
    for (const page of new Set(rows.map((r) => r.page))) {
      const mine = rows.filter((r) => r.page === page && r.formFactor === formFactor);
      const scores = mine.map((r) => r.performance);
      console.log(
        `| \`${pageName(page)}\` | ${formFactor} | ${scores.join(', ')} | ${Math.min(...scores)} | ${mine.map((r) => r.tbtMs).join(', ')} |`,
      );
    }
  }
  console.log('');
}
for (const r of rows.filter((row) => row.failing.length > 0)) {
  console.log(`${r.formFactor} ${r.page}${runs > 1 ? ` run ${r.run}` : ''} below 90: ${r.failing.join(', ')}`);
}

fs.mkdirSync(path.dirname(args.out), { recursive: true });
// Formatted as the repository's Prettier would, so `npm run lint` passes with the file committed.
const json = JSON.stringify({ date: new Date().toISOString(), lighthouse: '12', chrome: args.chrome, url: app.url, runs, results: rows });
const options = (await prettier.resolveConfig(args.out)) ?? {};
fs.writeFileSync(args.out, await prettier.format(json, { ...options, parser: 'json' }));
console.log(`Wrote ${path.relative(process.cwd(), args.out)}`);
