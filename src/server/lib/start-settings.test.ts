import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../../scripts/lib/node-flags.mjs';
import { applyStartSettings } from './start-settings';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const GROWTH = SERVER_NODE_FLAGS.find((f) => f.startsWith('--heap-growing-percent='))!;
const SEMI_SPACE = SERVER_NODE_FLAGS.find((f) => f.startsWith('--max-semi-space-size='))!;
const MALLOC = Object.entries(SERVER_ENV).map(([name, value]) => `${name}=${value}`);

/** The settings of a process started with these options, and the flags it set. */
function started(execArgv: string[], env: NodeJS.ProcessEnv, glibc = true) {
  const flags: string[] = [];
  const settings = applyStartSettings({ execArgv, env, glibc, setFlags: (f) => flags.push(f) });
  return { ...settings, flags };
}

describe('what a directly started server sets and names', () => {
  it('alone (`node server.js`): sets the heap growth, names the young generation and the malloc variables', () => {
    expect(started([], {})).toEqual({ set: [GROWTH], missing: [SEMI_SPACE, ...MALLOC], flags: [GROWTH] });
  });

  it('as npm start starts it: sets and names nothing', () => {
    expect(started([...SERVER_NODE_FLAGS, '--enable-source-maps'], { ...SERVER_ENV })).toEqual({ set: [], missing: [], flags: [] });
  });

  it("leaves the operator's own values, spelt either way, on the command line or in NODE_OPTIONS", () => {
    const own = started(['--heap_growing_percent=50'], { NODE_OPTIONS: '--max-semi-space-size=16', MALLOC_ARENA_MAX: '4' });
    expect(own.flags).toEqual([]);
    expect(own.missing).toEqual(MALLOC.filter((m) => !m.startsWith('MALLOC_ARENA_MAX=')));
  });

  it("names no malloc variable where malloc is not glibc's", () => {
    expect(started([], {}, false).missing).toEqual([SEMI_SPACE]);
  });

  it('the growth set once running is the one V8 uses at its next full collection', () => {
    // V8 traces the factor by which it let the old generation grow after each full collection.
    const script = `
      if (process.argv[1] === 'set') {
        const { applyStartSettings } = await import(${JSON.stringify(path.join(ROOT, 'src/server/lib/start-settings.ts'))});
        applyStartSettings({ env: {}, glibc: false });
      }
      const live = [];
      for (let i = 0; i < 30; i++) live.push(new Array(100000).fill(i).map(String));
      globalThis.gc();`;
    const factorAfterCollection = (mode: string) => {
      const env = { ...process.env };
      delete env.NODE_OPTIONS;
      const run = spawnSync(
        process.execPath,
        ['--expose-gc', '--trace-gc-verbose', '--import', 'tsx', '--input-type=module', '-e', script, mode],
        { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 },
      );
      expect(run.status, run.stderr).toBe(0);
      const limits = [...run.stdout.matchAll(/\[HeapController\] Limit: .*\(([\d.]+)\)/g)];
      expect(limits.length, run.stdout.slice(-2000)).toBeGreaterThan(0);
      return Number(limits.at(-1)![1]);
    };
    const percent = Number(GROWTH.split('=')[1]);
    // Traced with one decimal (1.25 as 1.2).
    expect(Math.abs(factorAfterCollection('set') - (1 + percent / 100))).toBeLessThanOrEqual(0.051);
    expect(factorAfterCollection('default')).toBeGreaterThan(1.5);
  }, 60_000);
});
