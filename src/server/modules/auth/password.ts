import { hash, verify } from '@node-rs/argon2';
import { Semaphore, SemaphoreFullError } from '../../lib/semaphore';
import { AppError } from '../../errors';
import { MSG } from '../../../shared/messages';

/**
 * argon2id. Hashing is CPU-bound, so at most two run at once, and at most `MAX_WAITING` wait: a
 * flood of logins answers 503 at once instead of queueing every other user's login behind it.
 */
export const MAX_WAITING = 100;
const slots = new Semaphore(2, MAX_WAITING);

async function inSlot<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await slots.run(task);
  } catch (error) {
    if (error instanceof SemaphoreFullError) throw new AppError(503, MSG.busy, { 'retry-after': '2' });
    throw error;
  }
}
// 2 is Algorithm.Argon2id: a const enum, which isolated modules cannot read.
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return inSlot(() => hash(password, OPTIONS));
}

/**
 * Whether `password` is the account's. An account without a password (Discord only) answers
 * false after the same work as a wrong password, so its answer takes no less time.
 */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) {
    await burnVerifyTime(password);
    return false;
  }
  return inSlot(() => verify(passwordHash, password).catch(() => false));
}

/** A hash with the same parameters as real ones, verified when the username is unknown. */
let dummyHash: Promise<string> | undefined;
const DUMMY_PASSWORD = 'not-a-real-password-0000';

/** Makes the dummy hash ahead of time, so even the first unknown-user login takes no longer than the others. */
export function warmDummyHash(): void {
  dummyHash ??= hashPassword(DUMMY_PASSWORD);
}

/** Verified when the username is unknown, so both paths take the same time. */
export async function burnVerifyTime(password: string): Promise<void> {
  dummyHash ??= hashPassword(DUMMY_PASSWORD);
  await verifyPassword(await dummyHash, password);
}
