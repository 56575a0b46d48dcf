import { describe, expect, it } from 'vitest';
import { heardChange } from './cache-change';

describe('a change another instance published, as this version reads it', () => {
  it('reads every kind this version knows', () => {
    expect(heardChange({ kind: 'vote', serverId: 5 })).toEqual({ kind: 'vote', serverId: 5 });
    expect(heardChange({ kind: 'join', serverId: 6 })).toEqual({ kind: 'join', serverId: 6 });
    expect(heardChange({ kind: 'counts', serverIds: [1, 2], checkedIds: [3] })).toEqual({
      kind: 'counts',
      serverIds: [1, 2],
      checkedIds: [3],
    });
    expect(heardChange({ kind: 'month' })).toEqual({ kind: 'month' });
    expect(heardChange({ kind: 'all' })).toEqual({ kind: 'all' });
  });

  it('takes no counters from another instance: its held card is dropped, not set', () => {
    expect(heardChange({ kind: 'vote', serverId: 5, counters: { likes: 1e9, dislikes: 0 } })).toEqual({ kind: 'vote', serverId: 5 });
  });

  it('drops everything for a change it cannot read: a newer version’s kind, a field of the wrong type, no change at all', () => {
    for (const change of [
      { kind: 'season', serverId: 5 },
      { kind: 'vote', serverId: '5' },
      { kind: 'vote' },
      { kind: 'join', serverId: 1.5 },
      { kind: 'counts', serverIds: [1], checkedIds: 'all' },
      { kind: 'counts', serverIds: [null], checkedIds: [] },
      {},
      null,
      'month',
      [{ kind: 'month' }],
    ])
      expect(heardChange(change), JSON.stringify(change)).toEqual({ kind: 'all' });
  });
});
