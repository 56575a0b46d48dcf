import type { ServerRow, UserRow } from '../../db/schema';
import { MSG } from '../../../shared/messages';
import { forbidden } from '../../errors';
import { normalizePlan } from '../../../shared/roles';

/** Who may do what with a server: the one place that answers it (house style). */
export const serverPolicy = {
  /** Only the owner manages a server's page and media. */
  assertCanManage(actor: UserRow, server: Pick<ServerRow, 'ownerId'>): void {
    if (server.ownerId !== actor.id) throw forbidden(MSG.notYourServer);
  },

  /** Saving customisations needs Pro or Premium (spec §5). */
  assertCanSave(actor: UserRow): void {
    if (normalizePlan(actor.subscriptionPlan) === '') throw forbidden(MSG.saveNeedsPlan);
  },

  /** Owners cannot join, vote on or boost their own server (decisions §4). */
  assertNotOwnServer(actor: UserRow, server: Pick<ServerRow, 'ownerId'>): void {
    if (server.ownerId === actor.id) throw forbidden(MSG.ownServerVote);
  },

  /**
   * Creating: only owners; the first server free, the second and third with Premium, never more
   * than three (spec §5, decisions §5).
   */
  assertCanCreate(actor: UserRow, owned: number): void {
    if (actor.role !== 'server_owner') throw forbidden(MSG.onlyOwnersCreate);
    if (owned >= 3) throw forbidden(MSG.maxServers);
    if (owned >= 1 && normalizePlan(actor.subscriptionPlan) !== 'Premium') throw forbidden(MSG.premiumRequired);
  },
};
