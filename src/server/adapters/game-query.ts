import { GameDig } from 'gamedig';
import { gameById } from '../../shared/games';

export interface GameStatus {
  online: true;
  players: number;
  maxPlayers: number | null;
}

const MAX_PLAYERS = 100_000;

/** Counts from a game server are untrusted: whole numbers in a sane range, or the answer is refused. */
function count(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 && n <= MAX_PLAYERS ? n : undefined;
}

/**
 * Asks a game server for its players through gamedig, at the already checked IP (`address`
 * skips gamedig's own DNS lookup), on the given port only, within `timeoutMs`. Names and other
 * text the server sends are not kept.
 */
export async function queryGame(game: string, ip: string, port: number, timeoutMs: number): Promise<GameStatus> {
  const entry = gameById(game);
  if (!entry) throw new Error(`unknown game ${game}`);
  const state = await GameDig.query({
    type: entry.gamedig,
    host: ip,
    address: ip,
    port,
    givenPortOnly: true,
    maxRetries: 0,
    socketTimeout: Math.min(2000, timeoutMs),
    attemptTimeout: timeoutMs,
    portCache: false,
  });
  const raw = state as unknown as { numplayers?: unknown; maxplayers?: unknown; players?: unknown[] };
  const listed = Array.isArray(raw.players) ? raw.players.length : 0;
  const reported = raw.numplayers === undefined ? listed : count(raw.numplayers);
  // Some protocols report 0 while listing players (gamedig's quake2 family): the larger is the truth.
  const players = reported === undefined ? undefined : Math.max(reported, listed);
  const max = raw.maxplayers === undefined ? null : (count(raw.maxplayers) ?? null);
  if (players === undefined) throw new Error('the server answered an impossible player count');
  return { online: true, players, maxPlayers: max !== null && max < players ? players : max };
}
