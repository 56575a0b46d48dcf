import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = 2000;

/**
 * Hidden classes V8 made while `script` ran, counted by the key each one added (`--log-maps`).
 * A path that makes one per call shows its keys about once per round.
 */
function classesMade(script: string): { counts: Map<string, number>; stdout: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-maps-'));
  try {
    const logfile = path.join(dir, 'v8.log');
    const run = spawnSync(
      process.execPath,
      ['--log-maps', `--logfile=${logfile}`, '--no-logfile-per-isolate', '--import', 'tsx', script, String(ROUNDS)],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const counts = new Map<string, number>();
    for (const line of fs.readFileSync(logfile, 'latin1').split('\n')) {
      if (!line.startsWith('map,Transition,')) continue;
      const key = line.slice(line.lastIndexOf(',') + 1);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return { counts, stdout: run.stdout };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('objects made per request', () => {
  it('share their hidden classes: a server page, an answer encoded through its schema and a refusal make none per call', () => {
    const { counts, stdout } = classesMade('test/helpers/hidden-classes.script.ts');
    expect(Number(stdout)).toBeGreaterThan(ROUNDS * 1000);
    // Warming up makes a few of each; one per call (a spread followed by a new key) makes ~ROUNDS.
    const busiest = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 5);
    expect(busiest[0]![1], JSON.stringify(busiest)).toBeLessThan(ROUNDS / 10);
  });
});
