import type { UserRow } from '../../db/schema';
import type { AdminClaim, AdminClaims, ClaimFilter, GameClaimView, GameList, GameStatusView } from '../../../shared/schemas/game-status';
import { GAMES } from '../../../shared/games';
import { CLAIM_MSG, claimInstructions } from '../../../shared/claims';
import { MSG } from '../../../shared/messages';
import { badRequest, conflict, notFound } from '../../errors';
import { toApiId } from '../../lib/ids';
import { adminPolicy } from '../../policies/admin.policy';
import { AddressRefused, resolvePublicAddresses } from '../../adapters/address-guard';
import { gameStatusPolicy } from '../../policies/game-status.policy';
import type { GameStatusRepository, GameStatusRow } from './game-status.repository';
import type { AdminClaimRow, ClaimRow } from './game-claims.repository';
import { gameHistory, type HistoryDeps } from './game-history.service';
import { gamePoller, outboundPolicy, type PollerDeps } from './game-poller.service';
import { gameClaimsService, type ClaimsDeps } from './game-claims.service';
import { codeFound, hostKey, newClaimCode } from './claim-code';

/** What the game status needs: the poller's and the claims' deps (repositories, transactions, clock, settings, game query). */
export type GameStatusDeps = PollerDeps & ClaimsDeps & HistoryDeps;

const claimView = (game: string, claim: ClaimRow | undefined, verified: boolean): GameClaimView | null => {
  if (!claim && !verified) return null;
  const seen = claim?.answer?.seen ?? [];
  return {
    status: claim?.status === 'pending' ? 'pending' : 'verified',
    code: claim?.code ?? null,
    ...claimInstructions(game),
    verifiedAt: claim?.verifiedAt?.toISOString() ?? null,
    checkedAt: claim?.checkedAt?.toISOString() ?? null,
    seen,
    found: claim ? codeFound(claim.code, seen) : false,
  };
};

const iso = (d: Date | null) => d?.toISOString() ?? null;

const toAdminClaim = (c: AdminClaimRow): AdminClaim => ({
  id: toApiId(c.id),
  serverId: toApiId(c.serverId),
  serverName: c.serverName,
  ownerId: toApiId(c.ownerId),
  ownerUsername: c.ownerUsername,
  game: c.game,
  host: c.host,
  port: c.port,
  ip: c.ip,
  code: c.code,
  status: c.status,
  endedReason: c.endedReason,
  supersededBy: c.supersededBy === null ? null : toApiId(c.supersededBy),
  createdAt: c.createdAt.toISOString(),
  verifiedAt: iso(c.verifiedAt),
  endedAt: iso(c.endedAt),
  checkedAt: iso(c.checkedAt),
  seen: c.answer?.seen ?? [],
  flag: c.flag,
  flaggedAt: iso(c.flaggedAt),
});

/**
 * The owner's view: a verified address shows the listing's own poll state (what the public sees);
 * a pending one shows what the game answered the last check, which nobody else sees.
 */
function toView(s: GameStatusRow, claim: ClaimRow | undefined): GameStatusView {
  const pending = claim?.status === 'pending' ? claim : undefined;
  const game = pending?.game ?? s.game;
  const base = {
    showPlayerNames: s.showPlayerNames,
    claim: game ? claimView(game, claim, Boolean(s.game)) : null,
  };
  if (pending) {
    const answer = pending.answer;
    return {
      ...base,
      game: pending.game,
      host: pending.host,
      port: pending.port,
      cfxCode: pending.cfxCode,
      online: answer ? answer.online : null,
      currentPlayers: answer?.players ?? 0,
      maxPlayers: answer?.maxPlayers ?? null,
      lastSeenAt: answer?.online ? (pending.checkedAt?.toISOString() ?? null) : null,
      lastPolledAt: pending.checkedAt?.toISOString() ?? null,
      error: answer?.error ?? null,
    };
  }
  return {
    ...base,
    game: s.game,
    host: s.gameHost,
    port: s.gamePort,
    cfxCode: s.cfxCode,
    online: s.online,
    currentPlayers: s.currentPlayers,
    maxPlayers: s.maxPlayers,
    lastSeenAt: s.lastSeenAt?.toISOString() ?? null,
    lastPolledAt: s.lastPolledAt?.toISOString() ?? null,
    error: s.pollError,
  };
}

/** The server, or 404; then only its owner may go on. */
async function managedServer(repo: GameStatusRepository, actor: UserRow, id: number) {
  const server = await repo.findServerOwner(id);
  if (!server) throw notFound(MSG.serverNotFound);
  gameStatusPolicy.assertCanManageGame(actor, server);
  return server;
}

/**
 * Live status from the game itself: the owner's address, checked against private networks and
 * resolved once per query, claimed until the game reports the claim's code
 * (`game-claims.service.ts`); the poller (`game-poller.service.ts`) and the history with its
 * downsampling (`game-history.service.ts`) behind it.
 */
export function gameStatusService(deps: GameStatusDeps) {
  const { repo, claims, inTransaction, now, settings, onAddressChanged, onCountsChanged } = deps;
  const outbound = outboundPolicy(settings);
  const claiming = gameClaimsService(deps);
  const poller = gamePoller({ ...deps, onProofMoved: (serverId, ip) => claiming.proofMoved(serverId, ip) });

  /** The address, the claim and the last answer of an existing server. */
  const status = async (id: number): Promise<GameStatusView> => {
    const [row, claim] = await Promise.all([repo.findStatus(id), claims.live(id)]);
    return toView(row, claim);
  };

  /** Asks the game again now: checks a pending claim for its code, or polls a verified address. */
  const askNow = async (serverId: number): Promise<void> => {
    const claim = await claims.live(serverId);
    if (claim?.status === 'pending') {
      await claiming.check(claim);
      return;
    }
    const row = await repo.findStatus(serverId);
    if (!row.game || !row.gameHost || !row.gamePort) throw badRequest(CLAIM_MSG.notConnected);
    const polled = await poller.pollOne({
      id: serverId,
      game: row.game,
      gameHost: row.gameHost,
      gamePort: row.gamePort,
      // As a poll round would: a failed check goes on from the failures before it (the back-off
      // grows, and enough of them in a row turn the server offline); a new address starts at 0.
      pollFailures: row.pollFailures,
      online: row.online,
      provenIp: claim?.status === 'verified' ? claim.ip : null,
    });
    // Told as one poll of a round: a count that changed drops what shows it, and one that did not
    // still moves the page's "last checked" and the history's new sample. One that wrote nothing
    // (the address changed meanwhile) changed nothing.
    if (polled.written) onCountsChanged(polled.shown ? [serverId] : [], [serverId]);
  };

  return {
    ...gameHistory(deps),
    pollOne: poller.pollOne,
    checkDue: claiming.checkDue,
    status,

    /** One round: the verified addresses due a poll, then the pending claims due a check. */
    async pollDue(limit = 50): Promise<number> {
      return (await poller.pollDue(limit)) + (await claiming.checkDue(limit));
    },

    /** 404 for a server that does not exist, 403 for anyone but its owner (routes ask before reading a body). */
    async assertOwner(actor: UserRow, id: number): Promise<void> {
      await managedServer(repo, actor, id);
    },

    /** The games a server can be polled for, with their usual port. */
    games: (): GameList => GAMES.map((g) => ({ id: g.id, label: g.label, port: g.port })),

    /**
     * Sets (or changes) the address and asks the game at once, so the dashboard shows the answer.
     * The same address keeps its claim (and its verification); a new one starts a pending claim
     * with a new code, and the listing shows no live numbers until the game reports that code.
     */
    async setAddress(
      actor: UserRow,
      id: number,
      body: { game: string; host: string; port: number; cfxCode?: string | undefined; showPlayerNames?: boolean | undefined },
    ): Promise<GameStatusView> {
      const server = await managedServer(repo, actor, id);
      const host = body.host.trim();
      let addresses: string[];
      try {
        addresses = await resolvePublicAddresses(host, body.port, outbound);
      } catch (e) {
        if (e instanceof AddressRefused) throw badRequest(e.message);
        throw e;
      }
      // A join code only means something for the cfx.re games; anything else clears it.
      const cfxCode = body.game === 'fivem' || body.game === 'redm' ? body.cfxCode || null : null;
      const key = hostKey(host);
      const at = now();
      const changedPublic = await inTransaction(async (tx) => {
        // Two saves at once (two tabs, a double click) must not both start a claim.
        await repo.lockServer(server.id, tx);
        const live = await claims.live(server.id, tx, true);
        const row = await repo.findStatus(server.id, tx);
        if (body.showPlayerNames !== undefined) await repo.setShowPlayerNames(server.id, body.showPlayerNames, tx);
        // Verified before claims existed (no claim row): the same address stays verified too.
        // The same address: same game, port and host, still resolving to the IP it was proven at.
        const same = live
          ? live.game === body.game && live.port === body.port && live.hostKey === key && (live.ip === null || addresses.includes(live.ip))
          : row.game === body.game && row.gamePort === body.port && row.gameHost !== null && hostKey(row.gameHost) === key;
        if (same && (live?.status === 'verified' || (!live && row.game))) {
          if (live) await claims.resave(live.id, { cfxCode, host }, at, tx);
          await repo.connectGame(server.id, { game: body.game, gameHost: host, gamePort: body.port, cfxCode }, at, tx);
          return true;
        }
        if (same && live) {
          await claims.resave(live.id, { cfxCode, host }, at, tx);
          return false;
        }
        if (live) await claims.end(live.id, 'changed', at, tx);
        // The listing's earlier verified address goes with the change: nothing shows until this one is proven.
        const hadPublic = row.game !== null;
        if (hadPublic) await repo.disconnectGame(server.id, tx);
        await claims.insert(
          {
            serverId: server.id,
            game: body.game,
            host,
            hostKey: key,
            port: body.port,
            ip: addresses[0]!,
            cfxCode,
            code: newClaimCode(),
            nextCheckAt: at,
          },
          tx,
        );
        return hadPublic;
      });
      if (changedPublic) onAddressChanged();
      await askNow(server.id);
      return status(server.id);
    },

    /** "Check now": asks the game at once and answers what it said (and whether the code was there). */
    async checkNow(actor: UserRow, id: number): Promise<GameStatusView> {
      const server = await managedServer(repo, actor, id);
      await askNow(server.id);
      return status(server.id);
    },

    /** The owner's view of the address, the claim and the last answer (the dashboard shows it). */
    async statusFor(actor: UserRow, id: number): Promise<GameStatusView> {
      const server = await managedServer(repo, actor, id);
      return status(server.id);
    },

    /** Admins: a page of claims with their listings, owners and what the game said. */
    async adminClaims(actor: UserRow, query: { status: ClaimFilter; limit: number; offset: number }): Promise<AdminClaims> {
      adminPolicy.assertIsAdmin(actor);
      const [rows, total] = await Promise.all([claims.adminPage(query.status, query.limit, query.offset), claims.adminCount(query.status)]);
      return { claims: rows.map(toAdminClaim), total };
    },

    /** Admins: revokes a verified address; its listing loses it and must prove control again. */
    async revokeClaim(actor: UserRow, claimId: number): Promise<void> {
      adminPolicy.assertIsAdmin(actor);
      const claim = await claims.byId(claimId);
      if (!claim) throw notFound(CLAIM_MSG.claimNotFound);
      if (claim.status !== 'verified' || !(await claiming.revoke(actor.id, claim))) throw conflict(CLAIM_MSG.notVerified);
    },

    /** Stops polling the server and ends its claim; the listing shows no live numbers. */
    async clearAddress(actor: UserRow, id: number): Promise<void> {
      const server = await managedServer(repo, actor, id);
      const changed = await inTransaction(async (tx) => {
        const shown = await repo.lockServer(server.id, tx);
        const live = await claims.live(server.id, tx, true);
        if (live) await claims.end(live.id, 'removed', now(), tx);
        await repo.disconnectGame(server.id, tx);
        return shown || live !== undefined;
      });
      // Removing an address from a listing that shows none changes nothing anyone sees: no cache is dropped.
      if (changed) onAddressChanged();
    },
  };
}

export type GameStatusService = ReturnType<typeof gameStatusService>;
