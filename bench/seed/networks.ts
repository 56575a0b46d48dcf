import { sql, type RawBuilder } from 'kysely';
import { float, keySql, powerRank, type Key, type RandomSql } from './random';

/** Share of the networks that are IPv6 /64s (the rest IPv4 /24s). */
const IPV6_SHARE = 0.3;
/** Share of the users behind a network many others share too (a mobile carrier's NAT, a campus). */
const SHARED_USERS = 0.15;
/** Share of the votes and joins cast away from home (a phone, a friend's place, work). */
const AWAY_SHARE = 0.25;
/** Home networks are drawn from this many per user: few users draw the same one by chance. */
const HOME_SPACE = 4;
/** First groups of real-looking global IPv6 blocks. */
const IPV6_PREFIXES = [
  '2a02',
  '2a01',
  '2001',
  '2600',
  '2603',
  '2804',
  '2a00',
  '2409',
  '240e',
  '2406',
  '2a0a',
  '2605',
  '2c0f',
  '2403',
  '2a03',
  '2407',
];

/**
 * Voters' networks as the app stores them (`clientNetwork`: "a.b.c.0/24" or "2a02:810:4c3:1a::/64",
 * hex groups unpadded), one per network number. Never inside 10.0.0.0/8 or 127.0.0.0/8: the vote
 * benchmark sends its own votes from 10.x addresses, and a seeded vote from the same network on
 * the same server would make the app hold its vote (two a day per network and server).
 * `index` is used nine times over: pass a column, not an expression to work out again each time.
 * Networks numbered up to `ipv4Below` are IPv4: many users behind one address block is carrier
 * NAT, an IPv4 thing (one IPv6 /64 is one subscriber).
 */
export function networkSql(r: RandomSql, index: Key, ipv4Below = 0): RawBuilder<string> {
  const h = r.hash('network', index);
  const bits = (shift: number, mask: number) => sql`((${h} >> ${sql.raw(String(shift))}) & ${sql.raw(String(mask))})::int`;
  const prefixes = sql.raw(`ARRAY[${IPV6_PREFIXES.map((p) => `'${p}'`).join(',')}]`);
  // 11…223 without 127: no private 10/8, no loopback.
  const firstOctet = sql`(11 + ${bits(10, 255)} % 212 + (11 + ${bits(10, 255)} % 212 >= 127)::int)`;
  return sql<string>`CASE WHEN ${keySql(index)} > ${sql.raw(String(ipv4Below))} AND ${bits(0, 1023)} < ${sql.raw(String(Math.round(IPV6_SHARE * 1024)))}
    THEN (${prefixes})[1 + ${bits(10, 15)}] || ':' || to_hex(${bits(14, 65535)}) || ':' || to_hex(${bits(30, 65535)}) || ':' || to_hex(${bits(46, 65535)}) || '::/64'
    ELSE ${firstOctet}::text || '.' || ${bits(18, 255)}::text || '.' || ${bits(26, 255)}::text || '.0/24' END`;
}

/**
 * Where users connect from, as network numbers: most users have a network of their own, some
 * share one of a few big ones (Zipf's law: the biggest holds thousands), and a quarter of
 * everything they do comes from somewhere else.
 */
export function networkPlan(r: RandomSql, users: number) {
  const shared = Math.max(8, Math.round(users / 100));
  /** The home network number of user number `user` (1…users). */
  const home = (user: Key) =>
    sql<number>`CASE WHEN ${r.u('home.shared', user)} < ${float(SHARED_USERS)}
      THEN ${powerRank(r.u('home.pick', user), shared, 1)}
      ELSE ${sql.raw(String(shared + 1))} + floor(${r.u('home.pick', user)} * ${sql.raw(String(HOME_SPACE * users))})::int END`;
  /** The network a user's vote or join (keys: what names it in `stream`) came from. */
  const ofAction = (stream: string, user: Key, ...keys: Key[]) =>
    sql<number>`CASE WHEN ${r.u(`${stream}.away`, ...keys)} < ${float(AWAY_SHARE)}
      THEN ${sql.raw(String(shared + HOME_SPACE * users + 1))} + floor(${r.u(`${stream}.away-network`, ...keys)} * ${sql.raw(String(2 * HOME_SPACE * users))})::int
      ELSE ${home(user)} END`;
  return { home, ofAction, text: (index: RawBuilder<unknown>) => networkSql(r, index, shared) };
}
