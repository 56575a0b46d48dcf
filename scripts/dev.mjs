// `npm run dev`: the API on :3000 (restarting on change) and Vite's dev server on :5173 with hot reload.
import { spawn } from 'node:child_process';
import { ROOT, ensureDependencies } from './lib/ensure.mjs';
import { SERVER_ENV, serverNodeFlags } from './lib/node-flags.mjs';

ensureDependencies();
const children = [
  // With production's memory settings, so the API runs here as `npm start` runs it.
  spawn(process.execPath, [...serverNodeFlags(), '--import', 'tsx', '--watch', 'src/server/server.ts'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...SERVER_ENV, ...process.env },
  }),
  spawn('npx', ['vite'], { cwd: ROOT, stdio: 'inherit' }),
];
const stop = (signal) => children.forEach((c) => c.kill(signal));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));
children.forEach((c) =>
  c.on('exit', (code) => {
    stop('SIGTERM');
    process.exit(code ?? 0);
  }),
);
