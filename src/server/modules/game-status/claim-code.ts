import crypto from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { normaliseHost } from '../../adapters/address-guard';

// No 0/O, 1/I/L or U/V pairs: a code read off a screen and typed into a config file survives.
const ALPHABET = 'ABCDEFGHJKMNPQRSTWXYZ23456789';

/** A claim's code, like `rps-7KQ2F`: random, so one listing's proof can never stand for another's. */
export function newClaimCode(): string {
  let code = '';
  for (let i = 0; i < 5; i++) code += ALPHABET[crypto.randomInt(ALPHABET.length)];
  return `rps-${code}`;
}

/** Whether the game reported the code in one of the fields that count (any case: some panels shout). */
export function codeFound(code: string, seen: ReadonlyArray<{ text: string }>): boolean {
  const wanted = code.toUpperCase();
  return seen.some((f) => f.text.toUpperCase().includes(wanted));
}

/**
 * The host as listings are compared: a name in lower case without its trailing dot, an IP in
 * its one canonical form (so `::ffff:1.2.3.4`, `1.2.3.4` and `0x01020304` are one address).
 * The host has passed the address guard already.
 */
export function hostKey(host: string): string {
  const target = normaliseHost(host);
  if ('name' in target) return target.name.replace(/\.$/, '');
  const ip = ipaddr.process(target.ip);
  return ip.toString();
}
