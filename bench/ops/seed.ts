import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database';
import { migrateDatabase } from '../../src/server/db/migrate';
import { ensureReferenceData } from '../../src/server/db/reference-data';
import { hashPassword } from '../../src/server/modules/auth/password';

/** How much the restart test seeds: listed servers, the players who write during the load, and earlier players. */
export interface OpsSizes {
  servers: number;
  /** Users kept free of likes, joins and daily votes: the load's writers. */
  voters: number;
  /** Players whose earlier likes, reviews and joins give the servers counters and pages to show. */
  regulars: number;
}

export const QUICK_OPS_SIZES: OpsSizes = { servers: 400, voters: 400, regulars: 400 };
export const FULL_OPS_SIZES: OpsSizes = { servers: 5_000, voters: 3_000, regulars: 5_000 };

/** Words the server names are made of; the load searches for them. */
export const NAME_WORDS = ['city', 'life', 'state', 'valley', 'county', 'legacy', 'street', 'nation', 'harbor', 'frontier'];

export interface OpsDatabase {
  url: string;
  /** First and last id of the load's writers. */
  voters: [number, number];
  /** Listed servers' ids. */
  visible: number[];
  open(): Promise<DatabaseHandle>;
}

async function admin(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function checkedName(dbName: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) throw new Error(`not a plain database name: ${dbName}`);
  return dbName;
}

export async function dropOpsDatabase(adminUrl: string, dbName: string): Promise<void> {
  await admin(adminUrl, `DROP DATABASE IF EXISTS ${checkedName(dbName)} WITH (FORCE)`);
}

/**
 * (Re)creates `dbName` next to the database `adminUrl` names, migrates it with the app's
 * migrations and seeds it in a few set-based statements: owners and their servers, earlier
 * players' likes (some with a review) and joins with the counters set from them, and the load's
 * writers, confirmed and long registered (no hold rule applies to them).
 */
export async function prepareOpsDatabase(adminUrl: string, dbName: string, sizes: OpsSizes): Promise<OpsDatabase> {
  await dropOpsDatabase(adminUrl, dbName);
  await admin(adminUrl, `CREATE DATABASE ${checkedName(dbName)}`);
  const target = new URL(adminUrl);
  target.pathname = `/${dbName}`;
  const url = target.toString();
  const open = () => openDatabase({ kind: 'postgres', url, poolSize: 1, statementTimeoutMs: 0 });
  const handle = await open();
  try {
    const { db } = handle;
    await migrateDatabase(handle, url);
    await ensureReferenceData(db);
    const hash = await hashPassword('ops-password-not-secret');
    const owners = Math.ceil(sizes.servers / 2);
    const users = owners + sizes.regulars + sizes.voters;
    const lit = (n: number) => sql.lit(n);
    await sql`
      INSERT INTO users (username, password_hash, role, email, email_key, email_confirmed_at, created_at)
      SELECT 'ops_' || g, ${hash}::text, CASE WHEN g <= ${lit(owners)} THEN 'server_owner' ELSE 'player' END,
        'ops_' || g || '@ops.example.com', 'ops_' || g || '@ops.example.com', now() - interval '700 days', now() - interval '730 days'
      FROM generate_series(1, ${lit(users)}) AS g`.execute(db);
    const first = Number(
      (await sql<{ id: number }>`SELECT min(id)::int AS id FROM users WHERE username LIKE 'ops\\_%'`.execute(db)).rows[0]!.id,
    );
    const words = `{${NAME_WORDS.join(',')}}`;
    await sql`
      INSERT INTO servers (owner_id, name, status_message, bio, current_players, created_at)
      SELECT ${lit(first)} + (g - 1) % ${lit(owners)},
        initcap((${words}::text[])[1 + g % 10]) || ' ' || initcap((${words}::text[])[1 + (g / 10) % 10]) || ' RP ' || g,
        'Welcome', 'A roleplay community. Read the rules before you play.', g % 50, now() - (g % 700) * interval '1 day'
      FROM generate_series(1, ${lit(sizes.servers)}) AS g`.execute(db);
    // Earlier players: each likes (every fourth dislikes) and joins a few servers; every third vote has a review.
    const regularsFrom = first + owners;
    await sql`
      INSERT INTO votes (user_id, server_id, type, review, created_at)
      SELECT ${lit(regularsFrom)} + r, s.id, CASE WHEN (r + s.id) % 4 = 0 THEN 'dislike' ELSE 'like' END,
        CASE WHEN (r + s.id) % 3 = 0 THEN 'Friendly staff and a fair economy.' END, now() - interval '30 days'
      FROM generate_series(0, ${lit(sizes.regulars - 1)}) AS r
      JOIN servers s ON s.id % 97 = r % 97
      ON CONFLICT DO NOTHING`.execute(db);
    await sql`
      INSERT INTO joins (user_id, server_id, created_at)
      SELECT ${lit(regularsFrom)} + r, s.id, now() - interval '20 days'
      FROM generate_series(0, ${lit(sizes.regulars - 1)}) AS r
      JOIN servers s ON s.id % 211 = r % 211
      ON CONFLICT DO NOTHING`.execute(db);
    await sql`
      UPDATE servers s SET likes = c.likes, dislikes = c.dislikes FROM (
        SELECT server_id, count(*) FILTER (WHERE type = 'like')::int AS likes, count(*) FILTER (WHERE type = 'dislike')::int AS dislikes
        FROM votes GROUP BY server_id) c WHERE c.server_id = s.id`.execute(db);
    await sql`
      UPDATE servers s SET total_joins = c.n FROM (SELECT server_id, count(*)::int AS n FROM joins GROUP BY server_id) c
      WHERE c.server_id = s.id`.execute(db);
    await sql`ANALYZE`.execute(db);
    const visible = (await sql<{ id: number }>`SELECT id FROM servers WHERE NOT hidden ORDER BY id`.execute(db)).rows.map((r) =>
      Number(r.id),
    );
    const voterFrom = regularsFrom + sizes.regulars;
    return { url, voters: [voterFrom, voterFrom + sizes.voters - 1], visible, open };
  } finally {
    await handle.close();
  }
}
