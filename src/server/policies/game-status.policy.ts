import type { ServerRow, UserRow } from '../db/schema';
import { serverPolicy } from './servers.policy';

/** Who may see and change a server's live game status. */
export const gameStatusPolicy = {
  /**
   * Only the server's owner connects its game, reads the poll state and disconnects it: the
   * address is theirs to give, like the rest of the server's page. Anyone else, an admin
   * included, gets 403.
   */
  assertCanManageGame(actor: Pick<UserRow, 'id'>, server: Pick<ServerRow, 'ownerId'>): void {
    serverPolicy.assertCanManage(actor, server);
  },

  /** Player-count history is public for listed servers; a hidden one answers 404 to everyone, as if it did not exist. */
  canSeeHistory(server: Pick<ServerRow, 'hidden'>): boolean {
    return !server.hidden;
  },
};
