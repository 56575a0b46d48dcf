import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../schema';
import type { Storage } from '../../adapters/storage';
import { hashPassword } from '../../modules/auth';
import { DEMO_SERVERS } from './demo-servers';
import { DEMO_PLAYER_NAMES, DEMO_REVIEWS } from './demo-players';
import { generateBanner, generateEmblem, rng } from './images';
import { normalizedEmail } from '../../lib/email-address';
import { claimDemoAddresses, demoGameColumns, seedDemoHistory, tickDemoServers } from './demo-live';
import { PRICES } from '../../../shared/limits';

/** Demo logins, printed at start-up and listed in the README. */
export const DEMO_PASSWORD = 'demo-password';
export const DEMO_ACCOUNTS = { player: 'demo_player', owner: 'demo_owner' } as const;

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const PLAYER_CAPACITY: Record<string, number> = {
  'FiveM (GTA V)': 128,
  'RedM (RDR2)': 64,
  'Minecraft Java': 200,
  'Minecraft Bedrock': 100,
  "Garry's Mod": 80,
};

/**
 * Fills a new database with about 40 RP servers, their owners, players, votes with reviews,
 * joins and boosts. Every counter on `servers` equals its rows, as in real use.
 * Runs once per database: a settings row remembers that it did.
 */
export async function seedDemo(db: Kysely<Database>, storage: Storage, log: FastifyBaseLogger): Promise<void> {
  const done = await db.selectFrom('settings').select('key').where('key', '=', 'demoSeeded').executeTakeFirst();
  if (done) return;
  const started = Date.now();
  const random = rng(20261122);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const now = Date.now();
  // One hash for every demo account: hashing is deliberately slow.
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  const images = await Promise.all(
    DEMO_SERVERS.map(async (_, i) => {
      const hue = (i * 47) % 360;
      const [banner, emblem] = await Promise.all([generateBanner(1000 + i, hue), generateEmblem(2000 + i, hue)]);
      await Promise.all([storage.put(banner.key, banner.data), storage.put(emblem.key, emblem.data)]);
      return { banner, emblem };
    }),
  );

  await db.transaction().execute(async (trx) => {
    const mkUser = (
      username: string,
      role: 'player' | 'server_owner',
      extra: { email?: string; plan?: '' | 'Pro' | 'Premium'; displayName?: string; daysAgo: number },
    ) => {
      const email = extra.email ?? `${username.toLowerCase().replace(/[^a-z0-9]/g, '')}@example.com`;
      const createdAt = new Date(now - extra.daysAgo * DAY);
      // Demo accounts are confirmed, as if each had opened its link when it registered.
      return {
        username,
        passwordHash,
        role,
        email,
        emailKey: normalizedEmail(email),
        emailConfirmedAt: createdAt,
        subscriptionPlan: extra.plan ?? '',
        displayName: extra.displayName ?? username.replace(/[_.]/g, ' '),
        profilePicture: null,
        stripeCustomerId: null,
        createdAt,
      };
    };

    const players = await trx
      .insertInto('users')
      .values([
        mkUser(DEMO_ACCOUNTS.player, 'player', { displayName: 'Demo Player', daysAgo: 30 }),
        ...DEMO_PLAYER_NAMES.map((name) => mkUser(name, 'player', { daysAgo: Math.floor(random() * 150) })),
      ])
      .returning(['id'])
      .execute();
    const owners = await trx
      .insertInto('users')
      .values([
        mkUser(DEMO_ACCOUNTS.owner, 'server_owner', { displayName: 'Demo Owner', plan: 'Premium', daysAgo: 120 }),
        ...DEMO_SERVERS.slice(3).map((s, i) =>
          mkUser(`owner_${i + 1}`, 'server_owner', {
            displayName: `${s[0].split(' ')[0]} Staff`,
            plan: i % 3 === 0 ? 'Pro' : i % 5 === 0 ? 'Premium' : '',
            daysAgo: 60 + Math.floor(random() * 200),
          }),
        ),
      ])
      .returning(['id'])
      .execute();

    const filterRows = await trx.selectFrom('filters').select(['id', 'name']).execute();
    const filterId = new Map(filterRows.map((f) => [f.name, f.id]));

    const servers = await trx
      .insertInto('servers')
      .values(
        DEMO_SERVERS.map(([name, statusMessage, bio, filters], i) => {
          const game = filters[0] ?? '';
          const capacity = PLAYER_CAPACITY[game] ?? 64;
          const popularity = Math.max(0.05, 1 - i / DEMO_SERVERS.length + (random() - 0.5) * 0.4);
          // The last five joined the list within the last day, so "New servers" has something to show.
          const ageMs = i >= DEMO_SERVERS.length - 5 ? random() * 20 * HOUR : (3 + random() * 200) * DAY;
          const owner = i < 3 ? owners[0] : owners[i - 2];
          const img = images[i];
          // The draw that once typed a player count: kept, so the rest of the demo stays as it was.
          random();
          return {
            ownerId: owner!.id,
            name,
            statusMessage,
            bio,
            backgroundColor: i % 4 === 0 ? '#0f172a' : '#ffffff',
            textColor: i % 4 === 0 ? '#f8fafc' : '#000000',
            discordLink: `https://discord.gg/${name
              .toLowerCase()
              .replace(/[^a-z]/g, '')
              .slice(0, 10)}`,
            profilePicture: img ? storage.url(img.emblem.key) : null,
            banner: img ? storage.url(img.banner.key) : null,
            // Most demo servers have a game connected (a demo address the demo feed answers for); every
            // seventh has none and shows "not connected". Player counts come from the feed, never typed.
            ...(i % 7 === 6 ? {} : demoGameColumns(name, game)),
            currentPlayers: 0,
            maxPlayers: capacity,
            online: null,
            // The Premium demo owner's servers still hold their boost credits to spend.
            boostCredits: i < 3 ? PRICES.premiumNewServerBoostCredits : 0,
            views: Math.floor(200 + popularity * 5000 * random()),
            createdAt: new Date(now - ageMs),
          };
        }),
      )
      .returning(['id', 'createdAt'])
      .execute();

    await trx
      .insertInto('media')
      .values(
        servers.flatMap((s, i) => {
          const img = images[i]!;
          return [
            {
              serverId: s.id,
              kind: 'banner' as const,
              storageKey: img.banner.key,
              width: img.banner.width,
              height: img.banner.height,
              bytes: img.banner.data.length,
            },
            {
              serverId: s.id,
              kind: 'profile' as const,
              storageKey: img.emblem.key,
              width: img.emblem.width,
              height: img.emblem.height,
              bytes: img.emblem.data.length,
            },
          ];
        }),
      )
      .execute();

    // The views counter equals the view rows behind it, as every counter does: one row per demo
    // viewer, spread over the last 30 days.
    await sql`
      INSERT INTO server_views (server_id, viewer, day)
      SELECT s.id, 'demo:' || g, current_date - (g % 30)
      FROM servers s, generate_series(1, s.views) AS g
      WHERE s.id IN (${sql.join(servers.map((s) => s.id))})`.execute(trx);

    await trx
      .insertInto('serverFilters')
      .values(servers.flatMap((s, i) => DEMO_SERVERS[i]![3].map((name) => ({ serverId: s.id, filterId: filterId.get(name)! }))))
      .execute();

    const votes: Array<{ userId: number; serverId: number; type: 'like' | 'dislike'; review: string | null; createdAt: Date }> = [];
    const joins: Array<{ userId: number; serverId: number; createdAt: Date }> = [];
    const boosts: Array<{ serverId: number; userId: number; source: 'player'; amount: number; createdAt: Date }> = [];
    servers.forEach((server, i) => {
      const popularity = 1 - i / servers.length;
      const age = now - server.createdAt.getTime();
      const when = () => new Date(server.createdAt.getTime() + random() * age);
      for (const player of players) {
        if (random() < 0.1 + popularity * 0.55) {
          const type = random() < 0.82 + popularity * 0.1 ? 'like' : 'dislike';
          // Most votes carry a text (only those list as reviews). The draws stay as they were, so
          // the rest of the demo does not change: the extra texts are picked without drawing.
          const draw = random();
          const texts = DEMO_REVIEWS[type];
          const review = draw < 0.35 ? pick(texts) : draw < 0.6 ? texts[(player.id * 7 + server.id) % texts.length]! : null;
          votes.push({ userId: player.id, serverId: server.id, type, review, createdAt: when() });
        }
        if (random() < 0.15 + popularity * 0.6) joins.push({ userId: player.id, serverId: server.id, createdAt: when() });
        if (random() < popularity * 0.06)
          boosts.push({ serverId: server.id, userId: player.id, source: 'player', amount: 1, createdAt: when() });
      }
    });
    if (votes.length) await trx.insertInto('votes').values(votes).execute();
    if (joins.length) await trx.insertInto('joins').values(joins).execute();
    if (boosts.length) {
      const payments = await trx
        .insertInto('payments')
        .values(
          boosts.map((b) => ({
            userId: b.userId,
            serverId: b.serverId,
            type: 'playerBoost' as const,
            amountCents: 200,
            createdAt: b.createdAt,
          })),
        )
        .returning('id')
        .execute();
      await trx
        .insertInto('boosts')
        .values(boosts.map((b, i) => ({ ...b, paymentId: payments[i]!.id })))
        .execute();
    }
    await recountServers(trx);
    await claimDemoAddresses(trx);
    await trx
      .insertInto('settings')
      .values({ key: 'demoSeeded', value: JSON.stringify(true) })
      .execute();
  });
  // Charts with a month behind them, and the first "poll" of the live demo servers.
  await seedDemoHistory(db, now);
  await tickDemoServers(db, now);
  log.info(
    { servers: DEMO_SERVERS.length, ms: Date.now() - started },
    `demo data seeded; log in as ${DEMO_ACCOUNTS.player} or ${DEMO_ACCOUNTS.owner} with password ${DEMO_PASSWORD}`,
  );
}

/** Sets every server's counters from the rows they count. */
async function recountServers(trx: Kysely<Database>): Promise<void> {
  await trx
    .updateTable('servers')
    .set((eb) => ({
      likes: eb
        .selectFrom('votes')
        .select((v) => v.fn.countAll<number>().as('n'))
        .whereRef('votes.serverId', '=', 'servers.id')
        .where('votes.type', '=', 'like'),
      dislikes: eb
        .selectFrom('votes')
        .select((v) => v.fn.countAll<number>().as('n'))
        .whereRef('votes.serverId', '=', 'servers.id')
        .where('votes.type', '=', 'dislike'),
      totalJoins: eb
        .selectFrom('joins')
        .select((j) => j.fn.countAll<number>().as('n'))
        .whereRef('joins.serverId', '=', 'servers.id'),
      totalBoosts: eb
        .selectFrom('boosts')
        .select((b) => b.fn.coalesce(b.fn.sum<number>('amount'), b.lit(0)).as('n'))
        .whereRef('boosts.serverId', '=', 'servers.id')
        .where('boosts.revokedAt', 'is', null),
      lastBoostedAt: eb
        .selectFrom('boosts')
        .select((b) => b.fn.max('createdAt').as('n'))
        .whereRef('boosts.serverId', '=', 'servers.id')
        .where('boosts.revokedAt', 'is', null),
    }))
    .execute();
}
