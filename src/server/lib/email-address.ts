import fs from 'node:fs';
import { createRequire } from 'node:module';
import { SortedNames } from './sorted-names';

const require = createRequire(import.meta.url);
/** A JSON list of the package's, read without `require` (whose module cache would keep the array). */
const listOf = (file: string) => new SortedNames(JSON.parse(fs.readFileSync(require.resolve(file), 'utf8')) as string[]);
/**
 * Well-known disposable-mail domains, from the maintained `disposable-email-domains` list: exact
 * domains, and domains whose every subdomain is disposable too.
 */
const DISPOSABLE = listOf('disposable-email-domains/index.json');
const DISPOSABLE_WILDCARD = listOf('disposable-email-domains/wildcard.json');

/** Domains where dots in the local part are ignored and the two names are one mailbox. */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address reaches, for "one account per address": lower case, without a `+tag`,
 * and for Gmail without dots and with googlemail.com read as gmail.com. Used for comparing only;
 * mail still goes to the address as typed.
 */
export function normalizedEmail(address: string): string {
  const trimmed = address.trim().toLowerCase();
  const at = trimmed.lastIndexOf('@');
  if (at <= 0) return trimmed;
  let local = trimmed.slice(0, at);
  let domain = trimmed.slice(at + 1).replace(/\.$/, '');
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replace(/\./g, '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/** Whether the address is at a known disposable-mail domain or a subdomain of a wildcard one. */
export function isDisposableEmail(address: string): boolean {
  const domain = address.trim().toLowerCase().split('@').pop()!.replace(/\.$/, '');
  if (DISPOSABLE.has(domain)) return true;
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const parent = labels.slice(i).join('.');
    if (DISPOSABLE_WILDCARD.has(parent) || (i > 0 && DISPOSABLE.has(parent))) return true;
  }
  return false;
}
