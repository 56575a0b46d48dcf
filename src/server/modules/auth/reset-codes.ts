import { randomCode, sha256 } from './secret-codes';

/** How long a mailed reset code works. */
export const RESET_TTL_MS = 60 * 60 * 1000;
/** Wrong guesses a code survives; the next wrong one burns it, so guessing gets five tries per code. */
export const RESET_CODE_MAX_ATTEMPTS = 5;
// 9 and 18 random bytes: base64url without padding, so the lengths are fixed.
const SELECTOR_LENGTH = 12;
const VERIFIER_LENGTH = 24;

/** A reset code's two halves as stored: the selector as is, the verifier hashed. */
export interface StoredResetCode {
  selector: string;
  verifierHash: string;
}

/**
 * A reset code is `selector + verifier`: the selector (stored as is) says which code a guess is
 * aimed at, so wrong guesses count against that code and its owner; the verifier is stored hashed.
 * Without having seen the mail nobody can name a code, so nobody can burn another user's code.
 */
export function parseResetCode(code: string): StoredResetCode | undefined {
  if (code.length !== SELECTOR_LENGTH + VERIFIER_LENGTH || !/^[\w-]+$/.test(code)) return undefined;
  return { selector: code.slice(0, SELECTOR_LENGTH), verifierHash: sha256(code.slice(SELECTOR_LENGTH)) };
}

/** A new random code: what is mailed, and what is stored of it. */
export function newResetCode(): StoredResetCode & { code: string } {
  const selector = randomCode(9);
  const verifier = randomCode(18);
  return { code: selector + verifier, selector, verifierHash: sha256(verifier) };
}
