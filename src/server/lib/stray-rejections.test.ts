import { describe, expect, it } from 'vitest';
import { strayRejectionHandler } from './stray-rejections';

describe('stray rejections', () => {
  const logged: unknown[] = [];
  const handle = strayRejectionHandler({ error: ({ err }) => logged.push(err) });

  it('logs a database call that lost the database, and lets the process go on', () => {
    const outages = [
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      new Error('acquiring a connection failed', { cause: new Error('Connection terminated unexpectedly') }),
    ];
    for (const outage of outages) expect(() => handle(outage)).not.toThrow();
    expect(logged).toEqual(outages);
  });

  it('throws anything else on, as Node would stop for it', () => {
    for (const bug of [
      new TypeError('x is undefined'),
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      'a string',
      undefined,
    ]) {
      expect(() => handle(bug)).toThrow();
    }
  });
});
