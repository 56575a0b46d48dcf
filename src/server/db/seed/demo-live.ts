import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../schema';
import { GAMES } from '../../../shared/games';

/**
 * The demo's game servers. Demo addresses end in `.demo.invalid` (a name that can never resolve),
 * so no real game answers them: without this feed every demo server would show "not connected".
 * The feed stands in for the poller on those servers only, writing what a poll writes (players,
 * online, map, version, when it was checked, a sample for the chart) on the same curve each day.
 * Their next real poll is parked far ahead; an owner who connects a real address on the dashboard
 * starts real polling of it (that resets the next poll).
 */
export const DEMO_HOST_SUFFIX = '.demo.invalid';
const PARKED = new Date('9999-01-01T00:00:00Z');
const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** How often the feed "polls", and how often it keeps a sample for the charts. */
const TICK_MS = 60_000;
const SAMPLE_EVERY_MS = 5 * 60_000;

/** A demo game by the first filter of a demo server (its game), with a map and version to show. */
const DEMO_GAMES: Record<string, { game: string; map: string; version: string }> = {
  'FiveM (GTA V)': { game: 'fivem', map: 'San Andreas', version: 'FXServer 12911' },
  'RedM (RDR2)': { game: 'redm', map: 'New Hanover', version: 'RedM 7290' },
  'Minecraft Java': { game: 'minecraft', map: 'world', version: '1.21.4' },
  'Minecraft Bedrock': { game: 'minecraft-bedrock', map: 'Bedrock level', version: '1.21.50' },
  "Garry's Mod": { game: 'garrysmod', map: 'rp_downtown_v4c_v2', version: '2024.10.29' },
};

/** Players of a demo server at `at`: its size, its popularity and the time of day (busy at 20:00 UTC). */
export function demoPlayers(capacity: number, popularity: number, seed: number, at: number): number {
  const hour = (at % DAY) / HOUR;
  const daily = 0.55 + 0.45 * Math.cos(((hour - 20) / 24) * 2 * Math.PI);
  const wobble = 0.9 + 0.1 * Math.sin(at / (37 * 60_000) + seed);
  return Math.max(0, Math.min(capacity, Math.round(capacity * popularity * daily * wobble)));
}

/** What the seed writes on a demo server it shows as live (its game, a fake address, parked polling). */
export function demoGameColumns(name: string, firstFilter: string | undefined) {
  const demo = firstFilter ? DEMO_GAMES[firstFilter] : undefined;
  if (!demo) return undefined;
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  const port = GAMES.find((g) => g.id === demo.game)?.port ?? 27015;
  return {
    game: demo.game,
    gameHost: `${slug}${DEMO_HOST_SUFFIX}`,
    gamePort: port,
    gameMap: demo.map,
    gameVersion: demo.version,
    nextPollAt: PARKED,
  };
}

/**
 * The demo's addresses count as verified (their feed is ours): each gets a verified claim, so the
 * dashboard shows them proven and a real listing of the same name would have to prove control.
 */
export async function claimDemoAddresses(db: Kysely<Database>): Promise<void> {
  await sql`
    INSERT INTO game_claims (server_id, game, host, host_key, port, code, status, verified_at)
    SELECT id, game, game_host, game_host, game_port, 'rps-' || upper(substr(md5(random()::text || id::text), 1, 5)), 'verified', now()
    FROM servers WHERE game_host LIKE ${'%' + DEMO_HOST_SUFFIX}
    ON CONFLICT DO NOTHING`.execute(db);
}

interface DemoRow {
  id: number;
  maxPlayers: number | null;
  popularity: number;
}

/** The demo servers the feed keeps alive, with their size and a popularity from their likes. */
async function demoServers(db: Kysely<Database>): Promise<DemoRow[]> {
  const rows = await sql<{ id: number; maxPlayers: number | null; likes: number }>`
    SELECT id, max_players, likes FROM servers
    WHERE game_host LIKE ${'%' + DEMO_HOST_SUFFIX} AND next_poll_at = ${PARKED}`.execute(db);
  const top = Math.max(1, ...rows.rows.map((r) => r.likes));
  return rows.rows.map((r) => ({ id: Number(r.id), maxPlayers: r.maxPlayers, popularity: 0.15 + 0.8 * (r.likes / top) }));
}

/** Thirty days of chart history for the demo servers: hourly for two days, daily before. */
export async function seedDemoHistory(db: Kysely<Database>, now: number): Promise<void> {
  const servers = await demoServers(db);
  const rows: Array<Record<string, unknown>> = [];
  for (const s of servers) {
    const capacity = s.maxPlayers ?? 64;
    for (let h = 1; h <= 48; h++) {
      const at = Math.floor((now - h * HOUR) / HOUR) * HOUR;
      const players = demoPlayers(capacity, s.popularity, s.id, at);
      rows.push({
        serverId: s.id,
        sampledAt: new Date(at),
        resolution: 'hour',
        players,
        maxPlayers: capacity,
        online: true,
        samples: 12,
        onlineSamples: 12,
      });
    }
    for (let d = 3; d <= 30; d++) {
      const at = Math.floor((now - d * DAY) / DAY) * DAY;
      // A day's figure is its peak, as the roll-up keeps; one quiet day in ten had a restart.
      const players = demoPlayers(capacity, s.popularity, s.id, at + 20 * HOUR);
      const down = (s.id + d) % 10 === 0;
      rows.push({
        serverId: s.id,
        sampledAt: new Date(at),
        resolution: 'day',
        players,
        maxPlayers: capacity,
        online: true,
        samples: 288,
        onlineSamples: down ? 276 : 288,
      });
    }
  }
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insertInto('playerCountSamples')
      .values(rows.slice(i, i + 1000) as never)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** One "poll" of every demo server: players now, online, checked now; a raw sample every five minutes. */
export async function tickDemoServers(db: Kysely<Database>, now: number): Promise<number> {
  const servers = await demoServers(db);
  if (servers.length === 0) return 0;
  const at = new Date(now);
  const sample = now % SAMPLE_EVERY_MS < TICK_MS;
  await db.transaction().execute(async (tx) => {
    for (const s of servers) {
      const players = demoPlayers(s.maxPlayers ?? 64, s.popularity, s.id, now);
      await tx
        .updateTable('servers')
        .set({ currentPlayers: players, online: true, lastPolledAt: at, lastSeenAt: at, pollFailures: 0, pollError: null })
        .where('id', '=', s.id)
        .execute();
      if (sample) {
        await tx
          .insertInto('playerCountSamples')
          .values({ serverId: s.id, sampledAt: at, resolution: 'raw', players, maxPlayers: s.maxPlayers, online: true })
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
    }
  });
  return servers.length;
}

/** Runs the feed now and every minute until `stop`; a failed tick is logged and the next one tries again. */
export function startDemoLiveFeed(db: Kysely<Database>, log: FastifyBaseLogger, onTick: () => void = () => {}): { stop(): void } {
  let stopped = false;
  const run = async () => {
    try {
      if ((await tickDemoServers(db, Date.now())) > 0) onTick();
    } catch (err) {
      if (!stopped) log.warn({ err }, 'demo live feed tick failed');
    }
  };
  void run();
  const timer = setInterval(() => void run(), TICK_MS);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
