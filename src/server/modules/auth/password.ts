import { hash, verify } from '@node-rs/argon2';
import { Semaphore } from '../../lib/semaphore';

/** argon2id (decisions §4). Hashing is CPU-bound, so at most two run at once. */
const slots = new Semaphore(2);
// 2 is Algorithm.Argon2id: a const enum, which isolated modules cannot read.
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return slots.run(() => hash(password, OPTIONS));
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return slots.run(() => verify(passwordHash, password).catch(() => false));
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
