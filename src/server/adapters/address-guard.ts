import dns from 'node:dns/promises';
import { Semaphore } from '../lib/semaphore';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { MSG } from '../../shared/messages';

/**
 * Where the server may send a request of its own (game queries, web push). Only public unicast
 * addresses pass: every range ipaddr.js does not call `unicast` is refused, IPv6 must be global
 * unicast (2000::/3), and IPv4 carried inside IPv6 (mapped, NAT64, 6to4, Teredo) is checked as
 * IPv4. Every spelling of a host is first brought to the one form a URL parser reads, so
 * `0177.0.0.1`, `2130706433` or `::ffff:7f00:1` are judged as the address they really are.
 */
export class AddressRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddressRefused';
  }
}

/** A resolver that answers every address of a name (the system's `dns.lookup` by default; tests inject one). */
export type HostLookup = (hostname: string, options: { all: true; verbatim: true }) => Promise<ReadonlyArray<{ address: string }>>;

/** Who may be reached besides the public internet, and how names are resolved. */
export interface TargetPolicy {
  /**
   * Exact loopback `ip:port` targets allowed although not public: tests' local servers only.
   * Any other address on the same host, and any other port, stays refused.
   */
  allowTargets?: readonly string[];
  lookup?: HostLookup;
  /** Longest wait for the resolver (default {@link LOOKUP_TIMEOUT_MS}). */
  lookupTimeoutMs?: number;
}

/** How long a host name may take to resolve before it counts as not resolving. */
export const LOOKUP_TIMEOUT_MS = 3000;

/**
 * Lookups of one resolver in flight at once, at most. The system's (`getaddrinfo`) takes one of
 * libuv's four worker threads, which argon2's hashing and file reads share, until the system
 * resolver itself gives up: often 10–30 s for a name whose DNS never answers, however soon this
 * module stops waiting. Owners type these names, so anyone may make theirs answer slowly: bounded
 * here, slow names hold two threads at most and slow down only other lookups (which wait for a
 * slot within their own time limit), never a login.
 */
export const LOOKUPS_AT_ONCE = 2;
/** Lookups waiting for a slot, at most: past it a name counts as unresolved at once. */
const LOOKUPS_WAITING_MAX = 64;
const slots = new WeakMap<HostLookup, Semaphore>();
/** Each resolver its own slots: an injected one (tests) never waits behind the system's. */
function slotsOf(lookup: HostLookup): Semaphore {
  let found = slots.get(lookup);
  if (!found) slots.set(lookup, (found = new Semaphore(LOOKUPS_AT_ONCE, LOOKUPS_WAITING_MAX)));
  return found;
}
const systemLookup: HostLookup = (name, options) => dns.lookup(name, options);

const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);

/**
 * The IPv4 addresses an IPv6 address stands for: `refuse` for forms that are never a public
 * target whatever they carry, `undefined` for a plain IPv6 address. `unwrap` says the address is
 * really the IPv4 one, to be connected to over IPv4.
 */
function embedded(address: ipaddr.IPv6): { inner: ipaddr.IPv4[]; unwrap: boolean } | 'refuse' | undefined {
  const p = address.parts;
  const [p0, p1, p2, p3, p4, p5, p6, p7] = [p[0]!, p[1]!, p[2]!, p[3]!, p[4]!, p[5]!, p[6]!, p[7]!];
  // ::/96 holds the unspecified address, loopback and the deprecated IPv4-compatible form (::7f00:1).
  if (p0 === 0 && p1 === 0 && p2 === 0 && p3 === 0 && p4 === 0 && p5 === 0) return 'refuse';
  if (address.isIPv4MappedAddress()) return { inner: [address.toIPv4Address()], unwrap: true };
  const range = address.range();
  // IPv4-translated (SIIT) and local-use NAT64 map whatever the operator chose: never a public target.
  if (range === 'rfc6145') return 'refuse';
  if (range === 'rfc6052') return p2 === 0 ? { inner: [v4(p6, p7)], unwrap: false } : 'refuse';
  if (range === '6to4') return { inner: [v4(p1, p2)], unwrap: false };
  // Teredo: the relay's address, then the client's with every bit flipped.
  if (range === 'teredo') return { inner: [v4(p2, p3), v4(~p6 & 0xffff, ~p7 & 0xffff)], unwrap: false };
  return undefined;
}

/**
 * The address to connect to when `literal` (an IP in standard notation) is a public unicast
 * address, else undefined. An IPv4-mapped address answers its IPv4 form.
 */
export function publicConnectAddress(literal: string): string | undefined {
  if (net.isIP(literal) === 0 || !ipaddr.isValid(literal)) return undefined;
  const address = ipaddr.parse(literal);
  if (address.kind() === 'ipv4') return address.range() === 'unicast' ? address.toString() : undefined;
  const v6 = address as ipaddr.IPv6;
  if (v6.zoneId) return undefined;
  const inside = embedded(v6);
  if (inside === 'refuse') return undefined;
  if (inside) {
    if (!inside.inner.every((a) => a.range() === 'unicast')) return undefined;
    return inside.unwrap ? inside.inner[0]!.toString() : v6.toString();
  }
  return v6.match(GLOBAL_UNICAST) && v6.range() === 'unicast' ? v6.toString() : undefined;
}

/** True when `literal` is an IP in standard notation that the server may connect to. */
export function isPublicAddress(literal: string): boolean {
  return publicConnectAddress(literal) !== undefined;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** What the owner typed, read the way a URL parser reads a host: an IP literal or a DNS name. */
export function normaliseHost(host: string): { ip: string } | { name: string } {
  const trimmed = host.trim();
  // Only what a host can hold: no userinfo, path, percent-escape, zone or port to reinterpret it.
  if (!trimmed || trimmed.length > 255 || !/^[\p{L}\p{N}.\-:[\]]+$/u.test(trimmed)) throw new AddressRefused(MSG.gameHostInvalid);
  const bracketed = trimmed.includes(':') && !trimmed.startsWith('[') ? `[${trimmed}]` : trimmed;
  let url: URL;
  try {
    url = new URL(`http://${bracketed}/`);
  } catch {
    throw new AddressRefused(MSG.gameHostInvalid);
  }
  if (url.port !== '' || url.host !== url.hostname) throw new AddressRefused(MSG.gameHostInvalid);
  const hostname = url.hostname;
  if (hostname.startsWith('[')) return { ip: hostname.slice(1, -1) };
  if (net.isIP(hostname)) return { ip: hostname };
  const labels = hostname.replace(/\.$/, '').split('.');
  if (hostname.length > 254 || !labels.every((l) => LABEL.test(l)) || /^(?:\d+|0x[0-9a-f]*)$/.test(labels.at(-1)!)) {
    throw new AddressRefused(MSG.gameHostInvalid);
  }
  // Reserved for this machine whatever a resolver says.
  if (labels.at(-1) === 'localhost') throw new AddressRefused(MSG.gameHostPrivate);
  return { name: hostname };
}

const targetKey = (ip: string, port: number) => {
  const canonical = ipaddr.parse(ip).toString();
  return canonical.includes(':') ? `[${canonical}]:${port}` : `${canonical}:${port}`;
};

/** Parses a test allow-list; anything but an exact loopback `ip:port` is a programming error. */
function allowedKeys(targets: readonly string[] = []): Set<string> {
  return new Set(
    targets.map((target) => {
      const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(target) ?? /^([^:]+):(\d{1,5})$/.exec(target);
      if (!m || net.isIP(m[1]!) === 0 || ipaddr.parse(m[1]!).range() !== 'loopback') {
        throw new Error(`allowTargets takes loopback ip:port entries only, not ${target}`);
      }
      return targetKey(m[1]!, Number(m[2]));
    }),
  );
}

/**
 * The guard's answer for one IP (in standard notation) on one port: the address to connect to,
 * or `AddressRefused`. Synchronous, so a connection to a literal is checked before it opens.
 */
export function checkTarget(ip: string, port: number, policy: TargetPolicy = {}): string {
  if (net.isIP(ip) !== 0 && allowedKeys(policy.allowTargets).has(targetKey(ip, port))) return ipaddr.parse(ip).toString();
  const answer = publicConnectAddress(ip);
  if (!answer) throw new AddressRefused(MSG.gameHostPrivate);
  return answer;
}

/**
 * Resolves a host once and answers the IP to connect to. Refuses hosts that are not a name or
 * an IP, and names of which any address (A or AAAA) is not public. The caller connects to the
 * answer itself, so a second DNS answer can never change the target.
 */
export async function resolvePublicAddress(host: string, port: number, policy: TargetPolicy = {}): Promise<string> {
  return (await resolvePublicAddresses(host, port, policy))[0]!;
}

/** Every address a host resolves to, each checked like {@link resolvePublicAddress}'s (at least one). */
export async function resolvePublicAddresses(host: string, port: number, policy: TargetPolicy = {}): Promise<string[]> {
  const target = normaliseHost(host);
  if ('ip' in target) return [checkTarget(target.ip, port, policy)];
  const lookup = policy.lookup ?? systemLookup;
  let addresses: ReadonlyArray<{ address: string }>;
  let timer: NodeJS.Timeout | undefined;
  try {
    // A resolver that never answers must not hold a save, a poll or a delivery: it counts as
    // unresolved. The time limit covers the wait for a slot too.
    let gaveUp = false;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        gaveUp = true;
        reject(new Error('lookup timed out'));
      }, policy.lookupTimeoutMs ?? LOOKUP_TIMEOUT_MS);
    });
    // A slot that comes after the caller gave up is passed on without asking the resolver.
    const looked = slotsOf(lookup).run(() =>
      gaveUp ? Promise.reject(new Error('lookup timed out')) : lookup(target.name, { all: true, verbatim: true }),
    );
    // Given up on, it keeps its slot until the resolver answers or fails by itself.
    looked.catch(() => undefined);
    addresses = await Promise.race([looked, late]);
  } catch {
    throw new AddressRefused(MSG.gameHostUnresolved);
  } finally {
    clearTimeout(timer);
  }
  if (addresses.length === 0) throw new AddressRefused(MSG.gameHostUnresolved);
  // Every address must pass, not just the one connected to: the resolver may rotate them.
  return addresses.map((a) => checkTarget(a.address, port, policy));
}
