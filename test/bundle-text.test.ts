import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { buildPageRenderer } from '../scripts/build-ssr.mjs';

/**
 * The server's bundles are held by V8 as their source text for as long as the process runs (it
 * compiles functions lazily from it). One character past U+00FF anywhere in a file, even in a
 * comment or a regular expression esbuild leaves as written, makes that text two bytes a
 * character: 1.3 MB for the server and 2.9 MB for the page renderer instead of half that.
 */
function wideLines(dir: string): string[] {
  const found: string[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    fs.readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/[\u0100-\uffff]/.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
  }
  return found;
}

describe('the built server and page renderer', () => {
  const serverOut = path.resolve(`dist/server-text-${process.pid}`);
  const rendererOut = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-renderer-'));
  afterAll(() => {
    fs.rmSync(serverOut, { recursive: true, force: true });
    fs.rmSync(rendererOut, { recursive: true, force: true });
  });

  it('hold no character past U+00FF, so V8 keeps their source one byte a character', async () => {
    const built = spawnSync(process.execPath, ['scripts/build-server.mjs', '--outdir', serverOut], { encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    await buildPageRenderer({ outdir: rendererOut });
    expect(fs.existsSync(path.join(rendererOut, 'render.js'))).toBe(true);
    expect([...wideLines(serverOut), ...wideLines(rendererOut)]).toEqual([]);
  }, 60_000);
});
