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

/** Verified when the username is unknown, so both paths take the same time. */
let dummyHash: Promise<string> | undefined;
export async function burnVerifyTime(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password-0000');
  await verifyPassword(await dummyHash, password);
}
