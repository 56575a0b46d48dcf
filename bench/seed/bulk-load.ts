import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema';
import { step } from './context';

/** The tables the seed fills. */
export const SEEDED_TABLES = ['users', 'servers', 'server_filters', 'votes', 'joins', 'boosts', 'server_views'];

interface Dropped {
  table: string;
  name: string;
  /** `CREATE INDEX …`, or what follows `ADD CONSTRAINT name`. */
  definition: string;
  kind: 'index' | 'unique' | 'foreign key';
}

/**
 * What the seeded tables hold beyond primary keys and checks, to put back after the load: plain
 * indexes, unique constraints no foreign key leans on, and foreign keys. Unique indexes that are
 * not constraints stay (they are few and cheap, and a seeded row that breaks one fails at once).
 */
async function droppable(db: Kysely<Database>): Promise<Dropped[]> {
  const tables = sql`string_to_array(${SEEDED_TABLES.join(',')}::text, ',')`;
  const constraints = await sql<{ table: string; name: string; definition: string; type: string }>`
    SELECT quote_ident(t.relname) AS table, quote_ident(k.conname) AS name, pg_get_constraintdef(k.oid) AS definition, k.contype AS type
    FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
    WHERE t.relnamespace = current_schema()::regnamespace AND t.relname = ANY(${tables})
      AND (k.contype = 'f' OR (k.contype = 'u' AND NOT EXISTS (SELECT 1 FROM pg_constraint f WHERE f.contype = 'f' AND f.conindid = k.conindid)))
    ORDER BY t.relname, k.conname`.execute(db);
  const indexes = await sql<{ table: string; name: string; definition: string }>`
    SELECT quote_ident(t.relname) AS table, quote_ident(c.relname) AS name, pg_get_indexdef(i.indexrelid) AS definition
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
    WHERE t.relnamespace = current_schema()::regnamespace AND t.relname = ANY(${tables})
      AND NOT i.indisprimary AND NOT i.indisunique AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
    ORDER BY c.relname`.execute(db);
  return [
    ...constraints.rows.map((r) => ({ ...r, kind: r.type === 'f' ? ('foreign key' as const) : ('unique' as const) })),
    ...indexes.rows.map((r) => ({ ...r, kind: 'index' as const })),
  ];
}

/**
 * Runs `load` the way pg_restore loads data: foreign keys, unique constraints and plain indexes
 * of the seeded tables dropped first, then put back from their own definitions (so whatever the
 * migrations made is what comes back, under the same names): one sorted build per index and one
 * join per foreign key instead of a check and an index insert per row. A million votes took 88 s
 * with their two foreign keys against 5 s without (PostgreSQL 15, load average 24). Every row is
 * still checked: putting a constraint back validates the whole table.
 */
export async function loadLikeARestore(db: Kysely<Database>, log: (line: string) => void, load: () => Promise<void>): Promise<void> {
  const dropped = await droppable(db);
  for (const d of dropped)
    if (d.kind === 'index') await sql`DROP INDEX ${sql.raw(d.name)}`.execute(db);
    else await sql`ALTER TABLE ${sql.raw(d.table)} DROP CONSTRAINT ${sql.raw(d.name)}`.execute(db);
  try {
    await load();
  } finally {
    // Put back even when the load failed: the schema stays the migrations', whatever happens to the data.
    const put = (kind: Dropped['kind']) => async () => {
      for (const d of dropped.filter((x) => x.kind === kind))
        if (kind === 'index') await sql.raw(d.definition).execute(db);
        else await sql`ALTER TABLE ${sql.raw(d.table)} ADD CONSTRAINT ${sql.raw(d.name)} ${sql.raw(d.definition)}`.execute(db);
    };
    const count = (kind: Dropped['kind']) => dropped.filter((x) => x.kind === kind).length;
    await step(`${count('unique')} unique constraints`, log, put('unique'));
    await step(`${count('index')} indexes`, log, put('index'));
    await step(`${count('foreign key')} foreign keys checked`, log, put('foreign key'));
  }
}
