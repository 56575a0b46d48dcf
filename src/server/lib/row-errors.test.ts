import { describe, expect, it } from 'vitest';
import { isRowLevelError } from './row-errors';

describe('errors worth running a batch again row by row', () => {
  it('are data and constraint errors and deadlocks, nothing else', () => {
    for (const code of ['22001', '22P02', '23505', '23503', '40P01']) expect(isRowLevelError({ code })).toBe(true);
    for (const code of ['57014', '08006', '53300', '42P01', 'ECONNRESET']) expect(isRowLevelError({ code })).toBe(false);
    for (const error of [new Error('Connection terminated'), null, undefined, 'x', { code: 23505 }])
      expect(isRowLevelError(error)).toBe(false);
  });
});
