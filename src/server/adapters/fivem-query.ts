import type { TargetPolicy } from './address-guard';
import type { GameStatus, SeenField } from './game-query';
import { gameCount, plausibleCount } from './game-counts';
import { guardedFetch, OutboundRefused } from './guarded-http';
import { cleanGameText, cleanPlayerNames, seenField } from '../lib/game-text';

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

function counted(players: number | undefined, max: number | undefined, listed?: number) {
  if (players === undefined) throw new Error('the server answered an impossible player count');
  return plausibleCount(players, max ?? null, listed);
}

type Info = { server?: unknown; vars?: Record<string, unknown> } | null;

/** Where a FiveM or RedM owner can put a claim's code: the host name and the project's name and description. */
function seen(hostname: unknown, info: Info): SeenField[] {
  const fields = [
    seenField('Host name (sv_hostname)', hostname ?? info?.vars?.['sv_hostname']),
    seenField('sv_projectName', info?.vars?.['sv_projectName']),
    seenField('sv_projectDesc', info?.vars?.['sv_projectDesc']),
  ];
  return fields.filter((f): f is SeenField => f !== null);
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
    return json(info.body) as Info;
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
    const body = json(dynamic.body) as { clients?: unknown; sv_maxclients?: unknown; mapname?: unknown; hostname?: unknown } | null;
    const [info, players] = [await optional(readInfo), await optional(readPlayers)];
    const count = counted(gameCount(body?.clients), gameCount(body?.sv_maxclients), players ? players.length : undefined);
    // Without its player list the count cannot be checked against it: admins see that it was not.
    const flag = players ? count.flag : [count.flag, 'the player list did not answer'].filter(Boolean).join('; ');
    return {
      online: true,
      // The player list names everyone connected: a count above it is not believed.
      ...count,
      flag: count.players > 0 ? flag || null : count.flag,
      map: cleanGameText(body?.mapname, 64),
      version: cleanGameText(info?.server, 64),
      playerNames: cleanPlayerNames(players),
      seen: seen(body?.hostname, info),
    };
  }
  if (dynamic.status !== 404) throw new Error(`the server answered ${dynamic.status}`);

  const info = await readInfo();
  const players = await readPlayers();
  return {
    online: true,
    ...counted(gameCount(players.length), gameCount(info?.vars?.sv_maxClients ?? info?.vars?.sv_maxclients)),
    map: cleanGameText(info?.vars?.mapname, 64),
    version: cleanGameText(info?.server, 64),
    playerNames: cleanPlayerNames(players),
    seen: seen(undefined, info),
  };
}
