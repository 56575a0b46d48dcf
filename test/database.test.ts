import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/server/db/database';
import { migrateToLatest } from '../src/server/db/migrate';
import { ensureReferenceData, FILTER_CATEGORIES } from '../src/server/db/reference-data';
import { openTestDatabase, testDatabaseKind } from './helpers/test-db';

describe(`the data layer on ${testDatabaseKind}`, () => {
  let h: DatabaseHandle;
  beforeAll(async () => {
    h = await openTestDatabase();
  });
  afterAll(() => h.close());

  const newUser = (username: string) => ({
    username,
    passwordHash: 'x',
    role: 'player' as const,
    email: null,
    profilePicture: null,
    stripeCustomerId: null,
  });
  const newServer = (ownerId: number) => ({
    ownerId,
    name: 'S',
  });

  it('runs on the expected engine', () => {
    expect(h.kind).toBe(testDatabaseKind);
  });

  it('returns the same JS types from both drivers: numbers, Dates, booleans, date strings', async () => {
    const user = await h.db.insertInto('users').values(newUser('types_check')).returningAll().executeTakeFirstOrThrow();
    expect(typeof user.id).toBe('number');
    expect(user.createdAt).toBeInstanceOf(Date);
    expect(typeof user.emailUnsubscribed).toBe('boolean');
    const count = await h.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(typeof count.n).toBe('number');
    const sum = await h.db
      .selectFrom('servers')
      .select((eb) => eb.fn.coalesce(eb.fn.sum('likes'), eb.lit(0)).as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(sum.n)).toBe(0);
    const day = await sql<{ d: string }>`SELECT DATE '2026-11-27' AS d`.execute(h.db);
    expect(day.rows[0]?.d).toBe('2026-11-27');
  });

  it('migrates idempotently', async () => {
    expect(await migrateToLatest(h.db)).toEqual([]);
  });

  it('holds the filter categories of RP servers in every database', async () => {
    await ensureReferenceData(h.db);
    const categories = await h.db.selectFrom('filterCategories').select('name').orderBy('position').execute();
    expect(categories.map((c) => c.name)).toEqual(['Game', 'Style', 'Economy', 'Whitelist', 'Language', 'Region', 'Platform', 'Features']);
    const filters = await h.db
      .selectFrom('filters')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(filters.n).toBe(FILTER_CATEGORIES.reduce((n, c) => n + c.filters.length, 0));
  });

  it('enforces one join and one vote per user per server, and one testimonial per owner', async () => {
    const user = await h.db.insertInto('users').values(newUser('unique_check')).returning('id').executeTakeFirstOrThrow();
    const server = await h.db.insertInto('servers').values(newServer(user.id)).returning('id').executeTakeFirstOrThrow();
    const join = { userId: user.id, serverId: server.id };
    await h.db.insertInto('joins').values(join).execute();
    await expect(h.db.insertInto('joins').values(join).execute()).rejects.toMatchObject({ code: '23505' });
    await h.db
      .insertInto('votes')
      .values({ ...join, type: 'like', review: null })
      .execute();
    await expect(
      h.db
        .insertInto('votes')
        .values({ ...join, type: 'dislike', review: null })
        .execute(),
    ).rejects.toMatchObject({ code: '23505' });
    await h.db.insertInto('testimonials').values({ ownerId: user.id, content: 'Great' }).execute();
    await expect(h.db.insertInto('testimonials').values({ ownerId: user.id, content: 'Again' }).execute()).rejects.toMatchObject({
      code: '23505',
    });
  });

  it('keeps usernames unique case-insensitively and rows valid by constraint', async () => {
    await h.db.insertInto('users').values(newUser('CaseName')).execute();
    await expect(h.db.insertInto('users').values(newUser('casename')).execute()).rejects.toMatchObject({ code: '23505' });
    const owner = await h.db.insertInto('users').values(newUser('constraint_owner')).returning('id').executeTakeFirstOrThrow();
    await expect(
      h.db
        .insertInto('servers')
        .values({ ...newServer(owner.id), backgroundColor: 'red' })
        .execute(),
    ).rejects.toMatchObject({ code: '23514' });
    await expect(
      h.db
        .insertInto('servers')
        .values({ ...newServer(owner.id), name: 'x'.repeat(101) })
        .execute(),
    ).rejects.toMatchObject({ code: '23514' });
  });

  it('deletes what belongs to a user with the user', async () => {
    const owner = await h.db.insertInto('users').values(newUser('cascade_owner')).returning('id').executeTakeFirstOrThrow();
    const server = await h.db.insertInto('servers').values(newServer(owner.id)).returning('id').executeTakeFirstOrThrow();
    await h.db.insertInto('votes').values({ userId: owner.id, serverId: server.id, type: 'like', review: null }).execute();
    await h.db.deleteFrom('users').where('id', '=', owner.id).execute();
    expect(await h.db.selectFrom('servers').select('id').where('id', '=', server.id).execute()).toEqual([]);
  });

  it('writes no index over the counters votes, joins, boosts and views raise, nor over what only the search index reads', async () => {
    // Lists and searches are answered from the in-memory search index, not from these; and an
    // indexed counter, or an indexed row_xid, would make every counter update write every index.
    const rows = await sql<{
      indexname: string;
      indexdef: string;
    }>`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'servers'`.execute(h.db);
    const names = rows.rows.map((r) => r.indexname);
    for (const index of ['servers_new_idx', 'servers_players_idx', 'servers_hot_idx']) expect(names).toContain(index);
    for (const { indexname, indexdef } of rows.rows) {
      expect(indexdef, indexname).not.toMatch(
        /\b(likes|dislikes|total_joins|total_boosts|views|filter_ids|row_xid)\b|gin_trgm_ops|to_tsvector/,
      );
    }
  });

  it('makes a counter update in place and logs the change once for the search index; a view alone is not logged', async () => {
    const owner = await h.db.insertInto('users').values(newUser('hot_owner')).returning('id').executeTakeFirstOrThrow();
    const [a, b] = await h.db
      .insertInto('servers')
      .values([newServer(owner.id), { ...newServer(owner.id), name: 'Second Hot Server' }])
      .returning('id')
      .execute();
    const ids = [a!.id, b!.id];
    const logged = async (db: typeof h.db) =>
      (
        await sql<{ id: number; current: boolean | null }>`SELECT server_id AS id, row_xid = pg_current_xact_id_if_assigned() AS current
          FROM server_changes WHERE server_id IN (${sql.join(ids)}) ORDER BY server_id`.execute(db)
      ).rows.map((r) => ({ id: Number(r.id), current: r.current }));
    // Inserted servers are logged by their own statement's trigger.
    expect(await logged(h.db)).toEqual(ids.map((id) => ({ id, current: null })));

    await h.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('servers')
        .set({ likes: sql`likes + 1`, totalJoins: sql`total_joins + 1` })
        .where('id', 'in', ids)
        .execute();
      await tx
        .updateTable('servers')
        .set({ dislikes: sql`dislikes + 1` })
        .where('id', '=', ids[0]!)
        .execute();
      const counts = await sql<{
        updated: number;
        hot: number;
      }>`SELECT pg_stat_get_xact_tuples_updated('servers'::regclass)::int AS updated,
        pg_stat_get_xact_tuples_hot_updated('servers'::regclass)::int AS hot`.execute(tx);
      expect(counts.rows[0]).toEqual({ updated: 3, hot: 3 });
      expect(await logged(tx)).toEqual(ids.map((id) => ({ id, current: true })));
    });

    await h.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('servers')
        .set({ views: sql`views + 1` })
        .where('id', '=', ids[0]!)
        .execute();
      // The view count alone keeps the row's stamp: nothing for the search index to read.
      expect((await logged(tx))[0]).toEqual({ id: ids[0], current: false });
    });

    await h.db.deleteFrom('servers').where('id', '=', ids[1]!).execute();
    expect((await logged(h.db)).map((r) => r.id)).toEqual([ids[0]]);
  });
});
