import { sql, type RawBuilder } from 'kysely';

/** An SQL expression, or a whole number written into the statement. */
export type Key = RawBuilder<unknown> | number;

/** 2^53: a hash's low 53 bits over it give a float8 in [0, 1) with every bit kept. */
const MASK = '9007199254740991';
const SCALE = '9007199254740992';

/** A seed is a whole number from 0 to 2^31-1 (it fills the upper half of every hash's 64-bit salt). */
export function assertSeed(seed: number): void {
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 0x7fffffff)
    throw new Error(`a seed is a whole number from 0 to 2147483647, not ${seed}`);
}

/** FNV-1a of a stream's name: each random quantity of the seed draws from a stream of its own. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A key as SQL. */
export const keySql = (key: Key) => (typeof key === 'number' ? sql.raw(String(Math.trunc(key))) : key);

/**
 * Numbers for the seed that depend on nothing but (seed, stream, row key): a hash of them, never
 * `random()`. A row's values are therefore the same whatever order or plan the database runs a
 * statement in, and PGlite gives what PostgreSQL gives (`hashint4extended` is integer arithmetic,
 * the same on every platform; it is what hash partitioning relies on to stay stable).
 *
 * A key must fit in int4. `hashint4extended` keeps all 64 bits of its seed argument, so a second
 * key is chained through it: hash(b, hash(a, salt)).
 */
export function randomSql(seed: number) {
  assertSeed(seed);
  const salt = (stream: string) => sql.raw(`${BigInt.asIntN(64, (BigInt(seed) << 32n) | BigInt(fnv1a(stream)))}::int8`);

  /** A 64-bit hash (int8) of the keys in `stream`. */
  const hash = (stream: string, ...keys: Key[]): RawBuilder<bigint> => {
    let h: RawBuilder<unknown> = salt(stream);
    for (const key of keys) h = sql`hashint4extended((${keySql(key)})::int4, ${h})`;
    return h as RawBuilder<bigint>;
  };

  /** A float8 in [0, 1), uniform. */
  const u = (stream: string, ...keys: Key[]): RawBuilder<number> =>
    sql<number>`((${hash(stream, ...keys)} & ${sql.raw(MASK)})::float8 / ${sql.raw(SCALE)})`;

  return { hash, u, salt };
}

export type RandomSql = ReturnType<typeof randomSql>;

/** A float written into a statement exactly (JavaScript prints the shortest string that reads back the same). */
export const float = (x: number) => sql.raw(`${String(x)}::float8`);

/**
 * A rank 1…n from a uniform `u`, the r-th about (r + shift)^-exponent as likely as any other: a
 * power law (Zipf's law at exponent 1). `shift` flattens the very top. The inverse of the
 * continuous distribution's CDF, cut to whole ranks; its constants are worked out here.
 */
export function powerRank(u: RawBuilder<number>, n: number, exponent: number, shift = 0): RawBuilder<number> {
  const count = Math.max(1, Math.floor(n));
  const lo = 1 + shift;
  const hi = count + 1 + shift;
  const x =
    Math.abs(exponent - 1) < 1e-9
      ? sql`(${float(lo)} * power(${float(hi / lo)}, ${u}))`
      : sql`power(${float(lo ** (1 - exponent))} + ${u} * ${float(hi ** (1 - exponent) - lo ** (1 - exponent))}, ${float(1 / (1 - exponent))})`;
  return sql<number>`least(${sql.raw(String(count))}, greatest(1, floor(${x})::int - ${sql.raw(String(shift))}))`;
}

/** Up to `count` step sizes from `from` on that are coprime with `n`: a walk by one from any start visits all of 0…n-1 before repeating. */
export function coprimeSteps(n: number, from: number, count: number): number[] {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const steps: number[] = [];
  for (let s = Math.max(1, from); steps.length < count && s < from + 2 * n + 64; s++) if (gcd(s, n) === 1) steps.push(s);
  return steps.length > 0 ? steps : [1];
}
