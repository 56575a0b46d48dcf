import { describe, expect, it } from 'vitest';
import { Semaphore, SemaphoreFullError } from './semaphore';

describe('Semaphore', () => {
  it('hands a freed slot to the task that waited, never to a newcomer', async () => {
    const slots = new Semaphore(1);
    let release!: () => void;
    const first = slots.run(() => new Promise<void>((r) => (release = r)));
    const order: string[] = [];
    const waiter = slots.run(async () => void order.push('waiter'));
    let newcomer: Promise<void> | undefined;
    release();
    // Queued now, this runs just after the first task's slot is given up and before the waiter's
    // turn comes round: the one moment a newcomer could slip in.
    queueMicrotask(() => (newcomer = slots.run(async () => void order.push('newcomer'))));
    await Promise.all([first, waiter]);
    await newcomer;
    expect(order).toEqual(['waiter', 'newcomer']);
    expect(slots.peak).toBe(1);
    expect(slots.active).toBe(0);
  });

  it('never runs more than its limit under a burst, and refuses beyond the waiting line', async () => {
    const slots = new Semaphore(2, 5);
    const tick = () => new Promise((r) => setImmediate(r));
    const runs = Array.from({ length: 7 }, () => slots.run(tick));
    await expect(slots.run(tick)).rejects.toBeInstanceOf(SemaphoreFullError);
    await Promise.all(runs);
    expect(slots.peak).toBe(2);
    expect(slots.active).toBe(0);
  });
});
