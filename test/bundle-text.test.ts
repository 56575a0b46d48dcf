import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildPageRenderer } from '../scripts/build-ssr.mjs';
import { wideLines } from './helpers/wide-lines';

// The server's own bundle is checked where it is built, in server-build.test.ts.
describe('the built page renderer', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-renderer-'));
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it('holds no character past U+00FF, so V8 keeps its 1.4 MB source one byte a character', async () => {
    await buildPageRenderer({ outdir: out });
    expect(fs.existsSync(path.join(out, 'render.js'))).toBe(true);
    expect(wideLines(out)).toEqual([]);
  }, 60_000);
});
