import { describe, expect, it } from 'vitest';
import { doneWithin } from './done-within';

describe('work done within a time', () => {
  it('answers what the work answers when it is in time', async () => {
    await expect(doneWithin(Promise.resolve(true), 1000)).resolves.toBe(true);
    await expect(doneWithin(Promise.resolve(false), 1000)).resolves.toBe(false);
  });

  it('answers false for work that fails, and for work that is late', async () => {
    await expect(doneWithin(Promise.reject(new Error('refused')), 1000)).resolves.toBe(false);
    const started = Date.now();
    await expect(doneWithin(new Promise<boolean>(() => undefined), 30)).resolves.toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('leaves no timer behind once the work answered', async () => {
    const timers = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    await doneWithin(Promise.resolve(true), 60_000);
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(timers);
  });
});
