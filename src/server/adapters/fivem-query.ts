import type { TargetPolicy } from './address-guard';
import type { GameStatus } from './game-query';
import { gameCount } from './game-counts';
import { guardedFetch, OutboundRefused } from './guarded-http';
import { cleanGameText, cleanPlayerNames } from '../lib/game-text';

const SMALL_ANSWER = 64 * 1024;
const INFO_ANSWER = 1024 * 1024;
// A full server's player list, identifiers included, stays well under this.
const PLAYER_LIST = 4 * 1024 * 1024;

function json(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw new Error('the server answered something that is not JSON');
  }
}

function status(players: number | undefined, max: number | undefined): GameStatus {
  if (players === undefined) throw new Error('the server answered an impossible player count');
  const maxPlayers = max ?? null;
  return { online: true, players, maxPlayers: maxPlayers !== null && maxPlayers < players ? players : maxPlayers };
}

/**
 * Asks a FiveM or RedM server (FXServer's HTTP endpoints on the game port) for its players,
 * through the guarded client: `/dynamic.json` carries the count, the limit and the map, and
 * `/info.json` (version) and `/players.json` (names) are read when they answer; servers without
 * `/dynamic.json` answer `/info.json` (limit) and `/players.json` (the list to count). One
 * deadline covers all.
 */
export async function queryFiveM(ip: string, port: number, timeoutMs: number, policy: TargetPolicy): Promise<GameStatus> {
  const started = Date.now();
  const base = `http://${ip.includes(':') ? `[${ip}]` : ip}:${port}`;
  const get = async (path: string, maxBytes: number) => {
    const left = timeoutMs - (Date.now() - started);
    if (left <= 0) throw new OutboundRefused('timeout', `no complete answer within ${timeoutMs} ms`);
    return guardedFetch(`${base}${path}`, { timeoutMs: left, maxBytes, policy, headers: { accept: 'application/json' } });
  };

  /** What a page that failed adds: nothing (the count still stands). */
  const optional = async <T>(read: () => Promise<T>): Promise<T | null> => {
    try {
      return await read();
    } catch {
      return null;
    }
  };
  const readInfo = async () => {
    const info = await get('/info.json', INFO_ANSWER);
    if (info.status !== 200) throw new Error(`the server answered ${info.status}`);
    return json(info.body) as { server?: unknown; vars?: Record<string, unknown> } | null;
  };
  const readPlayers = async () => {
    const list = await get('/players.json', PLAYER_LIST);
    if (list.status !== 200) throw new Error(`the server answered ${list.status}`);
    const players = json(list.body);
    if (!Array.isArray(players)) throw new Error('the player list is not a list');
    return players as unknown[];
  };

  const dynamic = await get('/dynamic.json', SMALL_ANSWER);
  if (dynamic.status === 200) {
    const body = json(dynamic.body) as { clients?: unknown; sv_maxclients?: unknown; mapname?: unknown } | null;
    const [info, players] = [await optional(readInfo), await optional(readPlayers)];
    return {
      ...status(gameCount(body?.clients), gameCount(body?.sv_maxclients)),
      map: cleanGameText(body?.mapname, 64),
      version: cleanGameText(info?.server, 64),
      playerNames: cleanPlayerNames(players),
    };
  }
  if (dynamic.status !== 404) throw new Error(`the server answered ${dynamic.status}`);

  const info = await readInfo();
  const players = await readPlayers();
  return {
    ...status(gameCount(players.length), gameCount(info?.vars?.sv_maxClients ?? info?.vars?.sv_maxclients)),
    map: cleanGameText(info?.vars?.mapname, 64),
    version: cleanGameText(info?.server, 64),
    playerNames: cleanPlayerNames(players),
  };
}
