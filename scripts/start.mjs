// `npm start`: install what is missing, build the web app and the server if needed, then run the
// compiled server (which migrates, seeds demo data into a new embedded database and listens on :3000).
import { spawn } from 'node:child_process';
import { ROOT, ensureDependencies, ensureServerBuild, ensureWebBuild } from './lib/ensure.mjs';
import { SERVER_ENV, serverNodeFlags } from './lib/node-flags.mjs';

ensureDependencies();
ensureWebBuild();
await ensureServerBuild();

const child = spawn(process.execPath, [...serverNodeFlags(), '--enable-source-maps', 'dist/server/server.js'], {
  cwd: ROOT,
  env: { ...SERVER_ENV, ...process.env },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
