import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../src/server/db/database';
import { serverPageReader } from '../src/server/modules/servers/server-page.repository';
import { serverDetailSchema } from '../src/shared/schemas/server';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';
import { openTestDatabase, rowsReadSoFar } from './helpers/test-db';
import { tallied, type Tally } from './helpers/statement-tally';

/**
 * What a server page costs when it is not held and a new visitor opens it (a link shared on
 * Discord, a follower's push): counted through the app's own database handle, not timed.
 */

let handle: DatabaseHandle;
const tally: Tally = { statements: [], transactions: 0 };
/** The feature toggles, held for two seconds and read again by whichever request comes next: not the page's. */
const TOGGLES_READ = 'SelectQueryNode settings';
let t: TestApp;
let ownerId: number;

let playersMade = 0;
/** `count` players in one statement (no password hashing: they never sign in). */
async function players(count: number): Promise<number[]> {
  const from = playersMade;
  playersMade += count;
  const { rows } = await sql<{ id: number }>`
    INSERT INTO users (username, password_hash, role)
    SELECT 'cost_' || g, 'not-a-hash', 'player' FROM generate_series(${from + 1}::int, ${from + count}::int) AS g
    RETURNING id`.execute(handle.db);
  return rows.map((r) => r.id);
}

/**
 * A popular server: `votes` votes, every fifth with a review (spread over the last months), and
 * `joined` of the reviewers with a counted join, the oldest ones (their reviews come first).
 */
async function popularServer(votes: number, joined: number) {
  const server = await createServer(t.app, ownerId);
  const voters = await players(votes);
  await sql`
    INSERT INTO votes (user_id, server_id, type, review, created_at)
    SELECT v.id, ${server.id}::bigint, CASE WHEN v.n % 3 = 0 THEN 'dislike' ELSE 'like' END,
      CASE WHEN v.n % 5 = 0 THEN 'Review number ' || v.n END, now() - v.n * interval '1 hour'
    FROM unnest(${voters}::bigint[]) WITH ORDINALITY AS v (id, n)`.execute(handle.db);
  const reviewers = voters.filter((_, i) => (i + 1) % 5 === 0);
  await sql`
    INSERT INTO joins (user_id, server_id) SELECT id, ${server.id}::bigint FROM unnest(${reviewers.slice(-joined)}::bigint[]) AS j (id)`.execute(
    handle.db,
  );
  // The newest joined reviewers: one edited review, one author with a display name.
  await sql`UPDATE votes SET edited_at = now() - interval '90 minutes' WHERE user_id = ${reviewers.at(-joined)!}::bigint`.execute(
    handle.db,
  );
  await sql`UPDATE users SET display_name = 'Long-time player' WHERE id = ${reviewers.at(1 - joined)!}::bigint`.execute(handle.db);
  // As the database's own statistics would say after a while (autovacuum analyses): the plans the page gets in production.
  await sql`ANALYZE votes, joins, users, servers`.execute(handle.db);
  return { id: server.id, reviews: reviewers.length };
}

/**
 * After rows were written behind the app's back: the caches dropped, and the search index's read
 * of those rows done by a throwaway page, not by the counted request.
 */
async function settle() {
  t.app.ctx.discovery.invalidate();
  expect((await t.app.inject({ url: `/api/servers/${(await createServer(t.app, ownerId)).id}` })).statusCode).toBe(200);
  // The drop emptied the cards, which the refresher reads again every two seconds: once every
  // listed card is back it reads none for minutes, so none of its reads falls in a counted request.
  const listed = (await t.app.ctx.discovery.searchIndex()).listedIds().length;
  await vi.waitFor(() => expect(t.app.ctx.discovery.cardsHeld()).toBeGreaterThanOrEqual(listed), { timeout: 10_000, interval: 50 });
}

/** One anonymous page request from its own network: what the app sent to the database for it. */
async function openedByNewVisitor(serverId: number, network: number) {
  tally.statements.length = 0;
  tally.transactions = 0;
  const res = await t.app.inject({
    url: `/api/servers/${serverId}`,
    remoteAddress: `198.51.${network}.7`,
    headers: { 'user-agent': 'Mozilla/5.0' },
  });
  expect(res.statusCode).toBe(200);
  const sent = { statements: tally.statements.filter((s) => s !== TOGGLES_READ), transactions: tally.transactions };
  return { page: res.json<{ views: number; reviews: unknown[]; reviewsTotal: number }>(), sent };
}

beforeAll(async () => {
  handle = await openTestDatabase();
  // Pages held as in production: each server below is asked for the first time, so none is held.
  t = await createTestApp({ build: { database: tallied(handle, tally), listCacheTtlMs: 60_000, counting: { flushMs: 0 } } });
  ownerId = (await createUser(t.app, { role: 'server_owner' })).row.id;
  // Settings read and the search index loaded before anything is counted (both are held afterwards).
  await settle();
});

afterAll(async () => {
  await t?.close();
  await handle?.close();
});

describe('a server page not held, opened by a new visitor', () => {
  it('is one statement outside any transaction, however many votes, reviews and joins the server has', async () => {
    const quiet = await createServer(t.app, ownerId);
    const popular = await popularServer(500, 40);
    await settle();

    for (const [i, id] of [quiet.id, popular.id].entries()) {
      const { page, sent } = await openedByNewVisitor(id, i + 1);
      expect(sent.statements, sent.statements.join(' | ')).toHaveLength(1);
      expect(sent.statements[0]).toContain('prepared:server-page');
      expect(sent.transactions).toBe(0);
      // The visitor's own view shows at once, before it is written.
      expect(page.views).toBe(1);
    }
  });

  it('asked together, is read with the others in one statement, each page its own server’s', async () => {
    const servers = await Promise.all(Array.from({ length: 8 }, (_, i) => createServer(t.app, ownerId, { name: `Together ${i}` })));
    const popular = await popularServer(200, 10);
    await settle();
    tally.statements.length = 0;
    const ids = [...servers.map((s) => s.id), popular.id, 987_654_321];
    const answers = await Promise.all(
      ids.map((id, i) =>
        t.app.inject({ url: `/api/servers/${id}`, remoteAddress: `198.51.${60 + i}.7`, headers: { 'user-agent': 'Mozilla/5.0' } }),
      ),
    );
    const pageReads = tally.statements.filter((s) => s.includes('prepared:server-pages'));
    expect(pageReads, tally.statements.join(' | ')).toHaveLength(1);
    for (const [i, server] of servers.entries()) {
      expect(answers[i]!.statusCode).toBe(200);
      expect(answers[i]!.json()).toMatchObject({ id: String(server.id), name: `Together ${i}`, views: 1, reviews: [], reviewsTotal: 0 });
    }
    // The popular server's page is the one read alone.
    const alone = await t.app.inject({ url: `/api/servers/${popular.id}/reviews?limit=10&offset=0` });
    expect(answers[8]!.json()).toMatchObject({ id: String(popular.id), reviewsTotal: popular.reviews, reviews: alone.json() });
    // A server that does not exist is a 404 for its own caller only.
    expect(answers[9]!.statusCode).toBe(404);
  });

  it('shows the same first reviews and total as the paged reviews, joined authors first', async () => {
    const popular = await popularServer(300, 25);
    await settle();
    const { page } = await openedByNewVisitor(popular.id, 10);
    const paged = await t.app.inject({ url: `/api/servers/${popular.id}/reviews?limit=10&offset=0` });
    expect(page.reviewsTotal).toBe(popular.reviews);
    expect(paged.headers['x-total-count']).toBe(String(popular.reviews));
    expect(page.reviews).toEqual(paged.json());
    expect(page.reviews).toHaveLength(10);
    expect(page.reviews.filter((r) => (r as { joined: boolean }).joined)).toHaveLength(10);
    expect(page.reviews).toContainEqual(expect.objectContaining({ displayName: 'Long-time player' }));
    expect(page.reviews).toContainEqual(
      expect.objectContaining({ editedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) }),
    );
    // Written without a pass of the schema: still exactly its fields, in its order.
    expect(JSON.stringify(serverDetailSchema.strict().parse(page))).toBe(JSON.stringify(page));
  });

  it('reads the reviews it counts and a page more, never the rest of the server’s votes nor other servers’', async () => {
    // Other servers' votes first (300 players on each of 100 servers), so the tables are big
    // enough for the plans a real database gets; then a server with 1,000 votes and 200 reviews
    // of which only 5 authors joined: the joined kind has fewer than a page.
    const crowd = await players(300);
    const others = await Promise.all(Array.from({ length: 100 }, () => createServer(t.app, ownerId)));
    await sql`
      INSERT INTO votes (user_id, server_id, type, review, created_at)
      SELECT u.id, s.id, 'like', CASE WHEN u.n % 5 = 0 THEN 'Fine' END, now() - u.n * interval '1 minute'
      FROM unnest(${crowd}::bigint[]) WITH ORDINALITY AS u (id, n) CROSS JOIN unnest(${others.map((o) => o.id)}::bigint[]) AS s (id)`.execute(
      handle.db,
    );
    const popular = await popularServer(1000, 5);
    const read = await handle.db.transaction().execute(async (tx) => {
      const readPage = serverPageReader(tx);
      // The filter names, read once per reader, first.
      await readPage(others[0]!.id, new Date(), 10);
      // The tables that grow with a server's votes: the servers and joins tables here are a hundred
      // rows each, which the planner rightly reads whole rather than through an index.
      const growing = ['votes', 'users'] as const;
      const before = await rowsReadSoFar(tx, growing);
      const row = await readPage(popular.id, new Date(), 10);
      expect(row?.reviews).toHaveLength(10);
      return (await rowsReadSoFar(tx, growing)) - before;
    });
    // Counting reads each review's index entry once; finding who joined reads each review at most
    // once more per kind, each by an index; the page's ten rows and their authors come on top.
    expect(read).toBeLessThan(3 * popular.reviews + 150);
    expect(read).toBeLessThan(1000);
  });

  it('asks nothing of the reviews while they are turned off', async () => {
    const popular = await popularServer(100, 5);
    await t.app.ctx.settings.update({ enableReviews: false });
    try {
      await settle();
      const { page, sent } = await openedByNewVisitor(popular.id, 20);
      expect(page).toMatchObject({ reviews: [], reviewsTotal: 0 });
      expect(sent.statements, sent.statements.join(' | ')).toHaveLength(1);
    } finally {
      await t.app.ctx.settings.update({ enableReviews: true });
    }
  });

  it('is held from its second ask: a page opened once is not kept for a while only to be pushed out', async () => {
    const server = await createServer(t.app, ownerId);
    await settle();
    const reads = async (network: number) =>
      (await openedByNewVisitor(server.id, network)).sent.statements.filter((s) => s.includes('prepared:server-page')).length;
    // The first open reads the page and keeps nothing; the second reads it again and keeps it.
    expect(await reads(40)).toBe(1);
    expect(await reads(41)).toBe(1);
    // From then on it is answered from memory, each new visitor's view still counted.
    expect(await reads(42)).toBe(0);
    await t.app.ctx.discovery.flushCounts();
    const stored = await handle.db.selectFrom('servers').select('views').where('id', '=', server.id).executeTakeFirstOrThrow();
    expect(stored.views).toBe(3);
  });
});

describe('the views new visitors add', () => {
  it('are written in one statement per batch and leave the search index’s row stamp alone', async () => {
    const servers = await Promise.all(Array.from({ length: 6 }, () => createServer(t.app, ownerId)));
    const stampOf = async (id: number) =>
      (await sql<{ x: string }>`SELECT row_xid::text AS x FROM servers WHERE id = ${id}::bigint`.execute(handle.db)).rows[0]!.x;
    const stamps = await Promise.all(servers.map((s) => stampOf(s.id)));
    await settle();
    await t.app.ctx.discovery.flushCounts();
    for (const [i, server] of servers.entries()) await openedByNewVisitor(server.id, 30 + i);

    tally.statements.length = 0;
    await t.app.ctx.discovery.flushCounts();
    expect(tally.statements.filter((s) => s !== TOGGLES_READ)).toHaveLength(1);
    const stored = await handle.db
      .selectFrom('servers')
      .select(['id', 'views'])
      .where(
        'id',
        'in',
        servers.map((s) => s.id),
      )
      .execute();
    expect(stored.map((s) => s.views)).toEqual(servers.map(() => 1));
    // Nothing the search index orders by changed: its rows are not read again for a view.
    expect(await Promise.all(servers.map((s) => stampOf(s.id)))).toEqual(stamps);
    // Any other write still moves the stamp, with or without a view count in it.
    await handle.db.updateTable('servers').set({ likes: 3, views: 2 }).where('id', '=', servers[0]!.id).execute();
    expect(await stampOf(servers[0]!.id)).not.toBe(stamps[0]);
  });
});
