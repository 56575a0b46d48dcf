import type { UserRow } from '../../db/schema';
import type { GameList, GameStatusView } from '../../../shared/schemas/game-status';
import { GAMES } from '../../../shared/games';
import { MSG } from '../../../shared/messages';
import { badRequest, notFound } from '../../errors';
import { AddressRefused, resolvePublicAddress } from '../../adapters/address-guard';
import { gameStatusPolicy } from '../../policies/game-status.policy';
import type { GameStatusRepository, GameStatusRow } from './game-status.repository';
import { gameHistory } from './game-history.service';
import { gamePoller, outboundPolicy, type PollerDeps } from './game-poller.service';

/** What the game status needs: the poller's deps (repository, transactions, clock, settings, game query). */
export type GameStatusDeps = PollerDeps & {
  /** An owner set or cleared a server's game address (its game filter and join link may change with it). */
  onAddressChanged: () => void;
};

const toView = (s: GameStatusRow): GameStatusView => ({
  game: s.game,
  host: s.gameHost,
  port: s.gamePort,
  cfxCode: s.cfxCode,
  showPlayerNames: s.showPlayerNames,
  online: s.online,
  currentPlayers: s.currentPlayers,
  maxPlayers: s.maxPlayers,
  lastSeenAt: s.lastSeenAt?.toISOString() ?? null,
  lastPolledAt: s.lastPolledAt?.toISOString() ?? null,
  error: s.pollError,
});

/** The server, or 404; then only its owner may go on. */
async function managedServer(repo: GameStatusRepository, actor: UserRow, id: number) {
  const server = await repo.findServerOwner(id);
  if (!server) throw notFound(MSG.serverNotFound);
  gameStatusPolicy.assertCanManageGame(actor, server);
  return server;
}

/**
 * Live status from the game itself: the owner's address, checked against private networks and
 * resolved once per query; the poller (`game-poller.service.ts`) and the history with its
 * downsampling (`game-history.service.ts`) behind it.
 */
export function gameStatusService(deps: GameStatusDeps) {
  const { repo, now, settings, onAddressChanged } = deps;
  const outbound = outboundPolicy(settings);
  const poller = gamePoller(deps);

  /** The address and the last answer of an existing server. */
  const status = async (id: number): Promise<GameStatusView> => toView(await repo.findStatus(id));

  return {
    ...poller,
    ...gameHistory(deps),
    status,

    /** The games a server can be polled for, with their usual port. */
    games: (): GameList => GAMES.map((g) => ({ id: g.id, label: g.label, port: g.port })),

    /** Sets (or changes) the address and asks the game at once, so the dashboard shows the answer. */
    async setAddress(
      actor: UserRow,
      id: number,
      body: { game: string; host: string; port: number; cfxCode?: string | undefined; showPlayerNames?: boolean | undefined },
    ): Promise<GameStatusView> {
      const server = await managedServer(repo, actor, id);
      try {
        await resolvePublicAddress(body.host, body.port, outbound);
      } catch (e) {
        if (e instanceof AddressRefused) throw badRequest(e.message);
        throw e;
      }
      // A join code only means something for the cfx.re games; anything else clears it.
      const cfxCode = body.game === 'fivem' || body.game === 'redm' ? body.cfxCode || null : null;
      await repo.connectGame(
        server.id,
        { game: body.game, gameHost: body.host.trim(), gamePort: body.port, cfxCode, showPlayerNames: body.showPlayerNames },
        now(),
      );
      await poller.pollOne({ id: server.id, game: body.game, gameHost: body.host.trim(), gamePort: body.port, pollFailures: 0 });
      onAddressChanged();
      return status(server.id);
    },

    /** The owner's view of the address and the last answer (the dashboard shows it). */
    async statusFor(actor: UserRow, id: number): Promise<GameStatusView> {
      const server = await managedServer(repo, actor, id);
      return status(server.id);
    },

    /** Stops polling the server; its listing keeps the last count it had. */
    async clearAddress(actor: UserRow, id: number): Promise<void> {
      const server = await managedServer(repo, actor, id);
      await repo.disconnectGame(server.id);
      onAddressChanged();
    },
  };
}

export type GameStatusService = ReturnType<typeof gameStatusService>;
