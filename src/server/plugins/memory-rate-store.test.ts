import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerRateLimiting } from './rate-limit-store';

/** What a limiter reads of a request: its route's options and what the key is made from. */
const request = (headers: Record<string, string>) => ({ headers, ip: '192.0.2.1', routeOptions: { config: {} } }) as never;

/** A limiter's answer for a request it counted (`isAllowed` is true only for an allow-listed one). */
interface Counted {
  isAllowed: boolean;
  isExceeded: boolean;
  remaining: number;
  ttlInSeconds: number;
}
const counted = async (answer: Promise<unknown>): Promise<Counted> => {
  const result = (await answer) as Counted;
  expect(result.isAllowed).toBe(false);
  return result;
};

describe('rate limits counted in memory', () => {
  it("keep one key's count while 12,000 other keys are counted by the same limiter", async () => {
    const app = Fastify();
    await registerRateLimiting(app, undefined);
    const perVoter = app.createRateLimit({ max: 3, timeWindow: 3_600_000, keyGenerator: (r) => `vote:user-hour:${r.headers['x-user']}` });
    await app.ready();
    const ask = (user: string) => counted(perVoter(request({ 'x-user': user })));
    for (let i = 0; i < 3; i++) expect((await ask('bot')).isExceeded).toBe(false);
    // A campaign's voters in between: the plugin's own store (an LRU of 5,000) forgot the bot here.
    for (let i = 0; i < 12_000; i++) await ask(`voter-${i}`);
    const fourth = await ask('bot');
    expect(fourth.isExceeded).toBe(true);
    expect(fourth.ttlInSeconds).toBeGreaterThan(3_500);
    expect((await ask('voter-0')).remaining).toBe(1);
    await app.close();
  });

  it('give each limiter its own counts', async () => {
    const app = Fastify();
    await registerRateLimiting(app, undefined);
    const a = app.createRateLimit({ max: 1, timeWindow: 60_000, keyGenerator: () => 'same-key' });
    const b = app.createRateLimit({ max: 1, timeWindow: 60_000, keyGenerator: () => 'same-key' });
    await app.ready();
    expect((await counted(a(request({})))).isExceeded).toBe(false);
    expect((await counted(a(request({})))).isExceeded).toBe(true);
    expect((await counted(b(request({})))).isExceeded).toBe(false);
    await app.close();
  });
});
