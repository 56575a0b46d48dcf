// Plain Node (no dependencies): these run before `npm install` may have happened.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** Runs a command in the project root with inherited output; exits the process when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options, env: { ...process.env, ...options.env } });
  if (result.status !== 0 && !options.allowFailure) {
    console.error(`\n✖ ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
  return result.status ?? 1;
}

function quiet(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'ignore' });
  return result.status === 0;
}

/** Installs npm packages when node_modules is missing or older than package-lock.json. */
export function ensureDependencies() {
  const lock = path.join(ROOT, 'package-lock.json');
  const stamp = path.join(ROOT, 'node_modules', '.rp-deps-stamp');
  const hash = crypto.createHash('sha256').update(fs.readFileSync(lock)).digest('hex');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) return;
  // `npm install`, not `npm ci`: npm 11 leaves other platforms' optional packages (tailwind's
  // oxide binaries) out of the lock file and then refuses `npm ci` for it. Versions still come from the lock.
  console.log('› Installing dependencies (npm install)…');
  run('npm', ['install', '--no-audit', '--no-fund']);
  fs.writeFileSync(stamp, hash);
}

function newestMtime(entry) {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

/** Builds the web app when dist/web is missing or older than its sources. */
export function ensureWebBuild({ force = false } = {}) {
  const index = path.join(ROOT, 'dist/web/index.html');
  const sources = [
    'src/web',
    'src/shared',
    'vite.config.ts',
    'scripts/precompress.mjs',
    'scripts/prerender.mjs',
    'scripts/route-preloads.mjs',
    'scripts/build-ssr.mjs',
    'package-lock.json',
  ].map((p) => path.join(ROOT, p));
  const stale = !fs.existsSync(index) || sources.some((s) => newestMtime(s) > fs.statSync(index).mtimeMs);
  if (!force && !stale) return;
  console.log('› Building the web app…');
  run('npx', ['vite', 'build', '--logLevel', 'warn']);
}

/** Compiles the server to dist/server when it is missing or older than its sources (scripts/build-server.mjs). */
export async function ensureServerBuild({ force = false } = {}) {
  const entry = path.join(ROOT, 'dist/server/server.js');
  const sources = ['src/server', 'src/shared', 'scripts/build-server.mjs', 'package-lock.json'].map((p) => path.join(ROOT, p));
  const stale = !fs.existsSync(entry) || sources.some((s) => newestMtime(s) > fs.statSync(entry).mtimeMs);
  if (!force && !stale) return;
  console.log('› Building the server…');
  const { buildServer } = await import('../build-server.mjs');
  await buildServer();
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function aptInstall(packages) {
  if (!isRoot()) return false;
  console.log(`› Installing ${packages.join(', ')} with apt-get…`);
  if (!quiet('apt-get', ['install', '-y', '-qq', ...packages])) {
    run('apt-get', ['update', '-qq'], { allowFailure: true });
    return quiet('apt-get', ['install', '-y', '-qq', ...packages]);
  }
  return true;
}

/** The browser the journeys drive: Debian's Chromium (never a downloaded build). */
export function ensureChromium() {
  if (fs.existsSync('/usr/bin/chromium')) return;
  if (!aptInstall(['chromium']) || !fs.existsSync('/usr/bin/chromium')) {
    console.error('✖ The browser tests need /usr/bin/chromium: install it with `sudo apt-get install -y chromium`.');
    process.exit(1);
  }
}

/**
 * The reverse proxy the restart test puts in front of two instances: Debian's nginx-light (the
 * test runs its own nginx process with its own configuration, never the system service).
 */
export function ensureNginx() {
  if (fs.existsSync('/usr/sbin/nginx')) return;
  if (!aptInstall(['nginx-light']) || !fs.existsSync('/usr/sbin/nginx')) {
    console.error('✖ The restart test needs /usr/sbin/nginx: install it with `sudo apt-get install -y nginx-light`.');
    process.exit(1);
  }
}

function portOpen(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Redis at 127.0.0.1:6379 for the tests of shared rate limits and the socket adapter. */
export async function ensureRedis() {
  if (process.env.TEST_REDIS_URL || (await portOpen(6379))) return;
  if (!quiet('sh', ['-c', 'command -v redis-server']) && !aptInstall(['redis-server'])) {
    console.error('✖ The tests need Redis on 127.0.0.1:6379 (or TEST_REDIS_URL): install redis-server.');
    process.exit(1);
  }
  console.log('› Starting redis-server on 127.0.0.1:6379…');
  run('redis-server', ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', '6379', '--save', '']);
  for (let i = 0; i < 50 && !(await portOpen(6379)); i++) await new Promise((r) => setTimeout(r, 100));
}
