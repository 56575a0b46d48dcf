import { createHash } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { preparedMarker } from './database';

/** What `afterLocks` runs: the statement, the locks before it, and the columns it answers. */
export interface LockedStatement<R> {
  /** Names the function (`<prefix>_<digest>`) and its prepared call. */
  prefix: string;
  /**
   * A PL/pgSQL `PERFORM` taking transaction-scoped advisory locks, over the statement's own
   * parameters (`$1`, `$2`…), in one order so two callers wait instead of deadlocking.
   */
  locks: string;
  /** The statement's answer as `RETURNS TABLE` declares it (names and exact types, in order). */
  returns: string;
  statement: RawBuilder<R>;
}

/** Functions known to exist, per database handle. */
const created = new WeakMap<object, Map<string, Promise<void>>>();
/**
 * Each function's name by its declaration (prefix, argument types, answer, body): digested once,
 * not per call. A few entries: one per statement text the app builds.
 */
const names = new Map<string, string>();

/**
 * Runs one statement after its advisory locks, in one round trip: both go into a PL/pgSQL
 * function, created on first use and named by a digest of its text, and called as one statement
 * (its own transaction). A volatile function's statements each take a new snapshot under READ
 * COMMITTED, so the statement sees what the locks' previous holders committed; one statement
 * taking the locks itself would not (its snapshot comes before them), and locks then statement in
 * a transaction of its own cost four round trips (docs/decisions/065-daily-votes-in-one-round-trip.md).
 *
 * The function's parameters are the statement's, typed by their values: integers `bigint`, dates
 * `timestamptz`, strings `text`, arrays of integers `bigint[]` and arrays of strings or nulls
 * `text[]`. Values typed otherwise make another function (another digest), never a wrong one.
 */
export async function afterLocks<DB, R>(database: Kysely<DB>, locked: LockedStatement<R>): Promise<R[]> {
  // Only raw SQL runs here: the tables' types do not matter.
  const db = database as unknown as Kysely<object>;
  const compiled = locked.statement.compile(db);
  const text = compiled.sql.replace(/^\/\* prepared:[\w-]+ \*\/\s*/, '');
  const types = compiled.parameters.map(pgType);
  const body = `${locked.locks};\n  RETURN QUERY ${text};`;
  const declaration = `${locked.prefix}\n${types.join(',')}\n${locked.returns}\n${body}`;
  let name = names.get(declaration);
  if (!name) {
    name = `${locked.prefix}_${createHash('sha1').update(declaration).digest('hex').slice(0, 12)}`;
    names.set(declaration, name);
  }
  const args = compiled.parameters.map((value, i) => sql`${value}::${sql.raw(types[i]!)}`);
  const call = sql<R>`${sql.raw(preparedMarker(name))} SELECT * FROM ${sql.raw(name)}(${sql.join(args)})`;
  await ensureFunction(db, name, types, locked.returns, body);
  try {
    return (await call.execute(db)).rows;
  } catch (error) {
    // Dropped since it was made here (a schema reset, a restore): made again, once.
    if ((error as { code?: string }).code !== UNDEFINED_FUNCTION) throw error;
    created.get(db)?.delete(name);
    await ensureFunction(db, name, types, locked.returns, body);
    return (await call.execute(db)).rows;
  }
}

const UNDEFINED_FUNCTION = '42883';

function ensureFunction(db: Kysely<object>, name: string, types: string[], returns: string, body: string): Promise<void> {
  let known = created.get(db);
  if (!known) created.set(db, (known = new Map()));
  let made = known.get(name);
  if (!made) {
    const create = async (tx: Kysely<object>) => {
      // Instances starting together: one creates it, the others find it (CREATE OR REPLACE at
      // once from two sessions can fail with "tuple concurrently updated").
      await sql`SELECT pg_advisory_xact_lock(hashtext('rp:create-function'))`.execute(tx);
      const found = await sql<{ found: boolean }>`SELECT to_regproc(${name}) IS NOT NULL AS found`.execute(tx);
      if (found.rows[0]?.found) return;
      await sql
        .raw(
          `CREATE FUNCTION ${name}(${types.join(', ')}) RETURNS TABLE (${returns}) LANGUAGE plpgsql VOLATILE AS $fn$
#variable_conflict use_column
BEGIN
  ${body}
END
$fn$`,
        )
        .execute(tx);
    };
    // Called inside a caller's transaction (a test counting what it reads): made in it.
    made = (db.isTransaction ? create(db) : db.transaction().execute(create)).catch((error: unknown) => {
      known.delete(name);
      throw error;
    });
    known.set(name, made);
  }
  return made;
}

/** The PostgreSQL type a parameter of the statement is declared with. */
function pgType(value: unknown): string {
  if (value instanceof Date) return 'timestamptz';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return 'bigint';
  if (Array.isArray(value) && value.length > 0) {
    if (value.every((v) => typeof v === 'number' && Number.isSafeInteger(v))) return 'bigint[]';
    if (value.every((v) => v === null || typeof v === 'string')) return 'text[]';
  }
  throw new Error(`afterLocks: no declared type for the parameter ${JSON.stringify(value)}`);
}
