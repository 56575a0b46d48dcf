import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS, serverNodeFlags } from '../scripts/lib/node-flags.mjs';

describe('the V8 flags `npm start` runs the server with', () => {
  it('are the app’s own, unless NODE_OPTIONS sets one itself, in either spelling', () => {
    expect(serverNodeFlags('')).toEqual(SERVER_NODE_FLAGS);
    expect(serverNodeFlags('--max-old-space-size=512 --enable-source-maps')).toEqual(SERVER_NODE_FLAGS);
    expect(serverNodeFlags('--max-semi-space-size=16')).toEqual(['--heap-growing-percent=25']);
    expect(serverNodeFlags('  --max_semi_space_size=16  ')).toEqual(['--heap-growing-percent=25']);
    // Not a prefix match: another flag that starts alike leaves the app's.
    expect(serverNodeFlags('--max-semi-space-size-x=1')).toEqual(SERVER_NODE_FLAGS);
  });

  it('let the operator’s young generation win: the heap limit node reports is the one of NODE_OPTIONS’s', () => {
    // V8's heap limit counts the young generation's semi-spaces: it tells which size node took.
    const limit = (flags: string[], nodeOptions = '') => {
      const run = spawnSync(process.execPath, [...flags, '-p', "require('v8').getHeapStatistics().heap_size_limit"], {
        env: { ...process.env, NODE_OPTIONS: nodeOptions },
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      return Number(run.stdout);
    };
    const sixteen = limit(['--max-semi-space-size=16']);
    expect(sixteen).toBeGreaterThan(limit(['--max-semi-space-size=8']));
    expect(limit(serverNodeFlags('--max-semi-space-size=16'), '--max-semi-space-size=16')).toBe(sixteen);
    // The app's flag on the command line would have won over it.
    expect(limit(SERVER_NODE_FLAGS, '--max-semi-space-size=16')).not.toBe(sixteen);
  });
});
