import type { FastifyRequest } from 'fastify';
import type { UserRow } from '../db/schema';
import { parseId } from '../lib/ids';
import { requireUser } from './auth';

/**
 * An `onRequest` hook for an owner's route on `/servers/:id/…`: the caller must be signed in and
 * may manage that server before the body or the query is read. What a body gets wrong is no
 * answer for someone who may not send it at all (another owner learnt a route's rules from its
 * 400s). An id that cannot be one is left to the params' 404.
 */
export function ownerFirst(assertOwner: (actor: UserRow, serverId: number) => Promise<void>) {
  return async (request: FastifyRequest): Promise<void> => {
    const id = parseId((request.params as { id?: string }).id);
    if (id !== undefined) await assertOwner(await requireUser(request), id);
  };
}
