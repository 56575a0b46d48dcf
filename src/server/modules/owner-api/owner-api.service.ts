import crypto from 'node:crypto';
import type { UserRow } from '../../db/schema';
import type { Server } from '../../../shared/schemas/server';
import { MSG } from '../../../shared/messages';
import { AppError, badRequest, notFound } from '../../errors';
import { toApiId } from '../../lib/ids';
import { serverPolicy } from '../../policies/servers.policy';
import type { OwnerApiRepository } from './owner-api.repository';

/** Live keys one server may have at once. */
export const MAX_KEYS = 10;
const DAY_MS = 24 * 3600_000;

/** `rpk_<prefix>_<secret>`: the prefix finds the key, the whole key's hash proves it. */
const KEY_PATTERN = /^rpk_([A-Za-z0-9]{10})_([A-Za-z0-9_-]{32,64})$/;
const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

const invalidKey = () => new AppError(401, 'Invalid or revoked API key', { 'www-authenticate': 'Bearer realm="owner-api"' });

interface Deps {
  repository: OwnerApiRepository;
  now: () => Date;
  /** The key's server as its page shows it (with rank), from the page cache. */
  publicServer: (id: number) => Promise<Server>;
}

/** Owner API keys (shown once, stored hashed, revocable) and the versioned read API they open (docs/decisions/032-owner-api.md). */
export function ownerApiService({ repository, now, publicServer }: Deps) {
  const owned = async (actor: UserRow, serverId: number) => {
    const server = await repository.findServer(serverId);
    if (!server) throw notFound(MSG.serverNotFound);
    serverPolicy.assertCanManage(actor, server);
    return server;
  };
  const toApiKey = (k: { id: number; name: string; prefix: string; createdAt: Date; lastUsedAt: Date | null }) => ({
    id: toApiId(Number(k.id)),
    name: k.name,
    prefix: `rpk_${k.prefix}`,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt ? k.lastUsedAt.toISOString() : null,
  });

  return {
    /** 404 for a server that does not exist, 403 for anyone but its owner (routes ask before reading a body). */
    async assertOwner(actor: UserRow, serverId: number): Promise<void> {
      await owned(actor, serverId);
    },

    async listKeys(actor: UserRow, serverId: number) {
      await owned(actor, serverId);
      return (await repository.listKeys(serverId)).map(toApiKey);
    },

    /** A new key, answered once with the key itself. */
    async createKey(actor: UserRow, serverId: number, name: string) {
      await owned(actor, serverId);
      if ((await repository.countKeys(serverId)) >= MAX_KEYS)
        throw badRequest(`A server can have at most ${MAX_KEYS} API keys: revoke one first.`);
      const prefix = crypto
        .randomBytes(16)
        .toString('base64url')
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(0, 10)
        .padEnd(10, '0');
      const key = `rpk_${prefix}_${crypto.randomBytes(32).toString('base64url')}`;
      const row = await repository.insertKey({ serverId, name, prefix, hash: sha256(key) });
      return { ...toApiKey(row), key };
    },

    async revokeKey(actor: UserRow, serverId: number, keyId: number): Promise<void> {
      await owned(actor, serverId);
      if (!(await repository.revokeKey(serverId, keyId, now()))) throw notFound('API key not found');
    },

    /**
     * The server a key opens: 401 for a malformed, unknown or revoked key (compared by hash in
     * constant time). Marks the key used, at most once a minute.
     */
    async authenticate(header: string | undefined): Promise<number> {
      const key = header?.replace(/^Bearer\s+/i, '').trim() ?? '';
      const match = KEY_PATTERN.exec(key);
      if (!match) throw invalidKey();
      const row = await repository.findKey(match[1]!);
      const given = Buffer.from(sha256(key), 'hex');
      if (!row || !crypto.timingSafeEqual(given, Buffer.from(row.hash, 'hex'))) throw invalidKey();
      const at = now();
      if (!row.lastUsedAt || at.getTime() - row.lastUsedAt.getTime() > 60_000) await repository.touchKey(row.id, at);
      return row.serverId;
    },

    /** The key's server, live: players, votes, rank. */
    async server(serverId: number) {
      const s = await publicServer(serverId);
      return {
        id: s.id,
        name: s.name,
        online: s.online,
        currentPlayers: s.currentPlayers,
        maxPlayers: s.maxPlayers,
        likes: s.likes,
        dislikes: s.dislikes,
        monthVotes: s.monthVotes,
        rank: s.rank ?? null,
      };
    },

    /** Counted daily votes, oldest first. */
    async votes(serverId: number, query: { since?: string | undefined; after?: string | undefined; limit: number }) {
      const rows = await repository.votes(serverId, {
        since: query.since ? new Date(query.since) : undefined,
        after: query.after ? Number(query.after) : undefined,
        limit: query.limit,
      });
      return rows.map((r) => ({
        id: toApiId(Number(r.id)),
        username: r.username,
        playerName: r.playerName,
        votedAt: r.createdAt.toISOString(),
      }));
    },

    /** Whether a player voted in the last 24 hours, and when they may again. */
    async check(serverId: number, player: string) {
      const at = now();
      const last = await repository.latestBy(serverId, player, new Date(at.getTime() - DAY_MS));
      return last
        ? { voted: true, votedAt: last.createdAt.toISOString(), nextVoteAt: new Date(last.createdAt.getTime() + DAY_MS).toISOString() }
        : { voted: false, votedAt: null, nextVoteAt: null };
    },
  };
}

/** The owner API, as routes receive it. */
export type OwnerApiService = ReturnType<typeof ownerApiService>;
