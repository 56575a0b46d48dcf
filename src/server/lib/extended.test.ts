import { describe, expect, it } from 'vitest';
import { extended } from './extended';

describe('extended', () => {
  it('is the spread of its two objects: the same keys in the same order, the base left as it was', () => {
    const base = { id: '1', name: 'A', rank: null as { position: number } | null, views: 3 };
    const extra = { rank: { position: 2 }, viewer: null };
    const made = extended(base, extra);
    expect(made).toEqual({ ...base, ...extra });
    expect(Object.keys(made)).toEqual(Object.keys({ ...base, ...extra }));
    expect(JSON.stringify(made)).toBe(JSON.stringify({ ...base, ...extra }));
    expect(base).toEqual({ id: '1', name: 'A', rank: null, views: 3 });
  });
});
