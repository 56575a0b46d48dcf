import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema';

/**
 * A digest of the benchmark database's schema: columns, indexes, constraints, triggers, functions
 * and table options. A run that reuses a database compares it with the digest recorded at the end
 * of the last seed or run, so a database changed by hand in between (an experiment's index, a
 * storage option) is seeded again rather than measured as if it were the app's. Functions the app
 * makes for itself as it runs (`afterLocks`: a name ending in a 12-digit digest) are left out,
 * and so is the table that records the digest.
 */
export async function schemaDigest(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ digest: string | null }>`
    WITH parts AS (
      SELECT format('column %s.%s %s %s %s', c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
               pg_get_expr(d.adbin, d.adrelid)) AS part
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid AND c.relkind IN ('r', 'p') AND c.relnamespace = 'public'::regnamespace
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relname <> 'bench_seed'
      UNION ALL
      SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> 'bench_seed'
      UNION ALL
      SELECT format('constraint %s %s', conname, pg_get_constraintdef(oid)) FROM pg_constraint
      WHERE connamespace = 'public'::regnamespace AND conrelid <> coalesce(to_regclass('bench_seed'), 0)
      UNION ALL
      SELECT 'trigger ' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
      UNION ALL
      SELECT format('function %s(%s) %s', proname, pg_get_function_identity_arguments(oid), md5(prosrc)) FROM pg_proc
      WHERE pronamespace = 'public'::regnamespace AND proname !~ '_[0-9a-f]{12}$'
      UNION ALL
      SELECT format('options %s %s', relname, array_to_string(reloptions, ',')) FROM pg_class
      WHERE relnamespace = 'public'::regnamespace AND reloptions IS NOT NULL
    )
    SELECT md5(string_agg(part, E'\n' ORDER BY part)) AS digest FROM parts`.execute(db);
  return rows[0]?.digest ?? '';
}

/** The digest recorded with the seed, or undefined when none was (a seed made before digests). */
async function recordedSchemaDigest(db: Kysely<Database>): Promise<string | undefined> {
  const column = await sql<{ found: boolean }>`
    SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'bench_seed' AND column_name = 'schema_digest') AS found`.execute(
    db,
  );
  if (!column.rows[0]?.found) return undefined;
  const { rows } = await sql<{ digest: string | null }>`SELECT schema_digest AS digest FROM bench_seed LIMIT 1`.execute(db);
  return rows[0]?.digest ?? undefined;
}

/** Records the schema as it is now, as the one the next reuse must find. */
export async function recordSchemaDigest(db: Kysely<Database>): Promise<void> {
  await sql`ALTER TABLE bench_seed ADD COLUMN IF NOT EXISTS schema_digest text`.execute(db);
  const digest = await schemaDigest(db);
  await sql`UPDATE bench_seed SET schema_digest = ${digest}`.execute(db);
}

/**
 * Why a reused database's schema is not the one recorded after its last seed or run (changed by
 * hand in between, or seeded before digests were recorded), or false when it is.
 */
export async function schemaChangedSinceLastRun(db: Kysely<Database>): Promise<string | false> {
  const recorded = await recordedSchemaDigest(db);
  if (recorded === undefined) return 'no schema digest was recorded with it';
  return recorded === (await schemaDigest(db)) ? false : 'changed since, by hand or by another build';
}
