// Compiles the server to JavaScript once: dist/server/server.js (run by `npm start`) and
// dist/server/cli.js (migrate/seed). Only our code is bundled; every package in node_modules stays
// an import, so native and wasm-bearing packages (PGlite, sharp, argon2) and pino's worker
// transports load from node_modules as they do under tsx. See docs/decisions/025-production-build.md.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
export const SERVER_OUT = path.join(ROOT, 'dist/server');

/**
 * Builds dist/server (or `outdir`, which must sit at the same depth, dist/<name>, for the paths
 * computed from import.meta.dirname); throws on a compile error.
 */
export async function buildServer({ outdir = SERVER_OUT } = {}) {
  if (path.dirname(path.resolve(outdir)) !== path.dirname(SERVER_OUT))
    throw new Error(`the server build must go to dist/<name>, not ${outdir}`);
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: { server: 'src/server/server.ts', cli: 'src/server/db/cli.ts' },
    outdir,
    bundle: true,
    // Both entries share most of the code; shared chunks sit beside them (same folder, so paths
    // computed from import.meta.dirname, such as the project root in app.ts, stay right).
    splitting: true,
    chunkNames: 'chunk-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  // `--outdir dist/<name>`: a build beside the real one (the test of the build uses it).
  const at = process.argv.indexOf('--outdir');
  const outdir = at > 0 ? path.resolve(process.argv[at + 1]) : SERVER_OUT;
  const started = Date.now();
  await buildServer({ outdir });
  console.log(`› Built ${path.relative(ROOT, outdir)} in ${Date.now() - started} ms`);
}
