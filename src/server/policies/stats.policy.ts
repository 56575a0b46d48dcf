import type { ServerRow, UserRow } from '../db/schema';
import { MSG } from '../../shared/messages';
import { forbidden } from '../errors';

/** Who may see a server's statistics: its owner, nobody else (not even an admin). */
export const statsPolicy = {
  /** Anyone but a server owner gets the generic 403; an owner of another server "not your server". */
  assertCanSeeStats(actor: Pick<UserRow, 'id' | 'role'>, server: Pick<ServerRow, 'ownerId'>): void {
    if (actor.role !== 'server_owner') throw forbidden();
    if (server.ownerId !== actor.id) throw forbidden(MSG.notYourServer);
  },
};
