import { createRequire } from 'node:module';
import type * as GameDigApi from 'gamedig';
import { gameById } from '../../shared/games';
import type { TargetPolicy } from './address-guard';
import { queryFiveM } from './fivem-query';
import { cleanGameText, cleanPlayerNames, seenField } from '../lib/game-text';
import { gameCount, plausibleCount } from './game-counts';

export interface GameStatus {
  online: true;
  players: number;
  maxPlayers: number | null;
  /** What else the game said, cleaned (null when it did not say). */
  map?: string | null;
  version?: string | null;
  playerNames?: string[] | null;
  /** The fields a claim's code counts in (the name, MOTD or description the game reports), cleaned. */
  seen?: SeenField[];
  /** Why the count is not what the game reported (it was not plausible, so the lower number is shown). */
  flag?: string | null;
}

/** One field of the game's answer that an owner can write to: what it is called and what it says. */
export interface SeenField {
  field: string;
  text: string;
}

type GameDigModule = typeof GameDigApi;
const require = createRequire(import.meta.url);
let gamedig: GameDigModule | undefined;
/**
 * gamedig, with every protocol it knows (~20-30 MB resident), loads on the first question about a
 * game, not at start-up: most instances poll no game at all. It is required synchronously (its
 * own CommonJS build of the same version) because `queryPath` answers synchronously.
 */
function loadGamedig(): GameDigModule {
  return (gamedig ??= require('gamedig') as GameDigModule);
}

/** gamedig types answered over HTTP, which this project asks itself through the guarded client. */
const HTTP_TYPES = new Set(['gta5f', 'rdr2r']);

/**
 * gamedig protocols checked to talk only to the address and port they are given, over UDP or
 * TCP (no HTTP, no DNS, no other host). A game on any other protocol is refused, so a new entry
 * cannot reach gamedig's own HTTP client (which follows redirects) unnoticed.
 */
const SOCKET_ONLY_PROTOCOLS = new Set(['valve', 'minecraft']);

/** How a game is asked: `http` through the guarded client, `socket` through gamedig, or not at all. */
export function queryPath(gamedigType: string): 'http' | 'socket' | undefined {
  if (HTTP_TYPES.has(gamedigType)) return 'http';
  const protocol = loadGamedig().games[gamedigType]?.options?.protocol;
  return protocol && SOCKET_ONLY_PROTOCOLS.has(protocol) ? 'socket' : undefined;
}

/**
 * Asks a game server for its players at the already checked IP, on the given port only, within
 * `timeoutMs`. FiveM and RedM go through the guarded HTTP client (`policy` says which test
 * servers it may reach); the others through gamedig over UDP/TCP, with `address` set so gamedig
 * does no DNS lookup. Names and other text the server sends are not kept.
 */
export async function queryGame(game: string, ip: string, port: number, timeoutMs: number, policy: TargetPolicy = {}): Promise<GameStatus> {
  const entry = gameById(game);
  if (!entry) throw new Error(`unknown game ${game}`);
  const path = queryPath(entry.gamedig);
  if (path === 'http') return queryFiveM(ip, port, timeoutMs, policy);
  if (path !== 'socket') throw new Error(`no checked query path for ${entry.gamedig}`);
  const state = await loadGamedig().GameDig.query({
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
  const raw = state as unknown as {
    name?: unknown;
    numplayers?: unknown;
    maxplayers?: unknown;
    players?: unknown[];
    map?: unknown;
    version?: unknown;
  };
  const listed = Array.isArray(raw.players) ? raw.players.length : 0;
  const reported = raw.numplayers === undefined ? listed : gameCount(raw.numplayers);
  // Some protocols report 0 while listing players (gamedig's quake2 family): the larger is the truth.
  const players = reported === undefined ? undefined : Math.max(reported, listed);
  const max = raw.maxplayers === undefined ? null : (gameCount(raw.maxplayers) ?? null);
  if (players === undefined) throw new Error('the server answered an impossible player count');
  // Minecraft's name is its MOTD (colour codes already stripped by gamedig); Source's is the server name.
  const name = seenField(entry.gamedig === 'minecraft' || entry.gamedig === 'mbe' ? 'MOTD' : 'Server name', raw.name);
  return {
    online: true,
    ...plausibleCount(players, max),
    map: cleanGameText(raw.map, 64),
    version: cleanGameText(raw.version, 64),
    playerNames: cleanPlayerNames(raw.players),
    seen: name ? [name] : [],
  };
}
