// `npm start`: install what is missing, build the web app if needed, then run the server
// (which migrates, seeds demo data into a new embedded database and listens on :3000).
import { spawn } from 'node:child_process';
import { ROOT, ensureDependencies, ensureWebBuild } from './lib/ensure.mjs';

ensureDependencies();
ensureWebBuild();

const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], { cwd: ROOT, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
