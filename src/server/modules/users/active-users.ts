import { batcher } from '../../lib/batcher';
import { isRowLevelError } from '../../lib/row-errors';
import type { UserRow } from '../../db/schema';
import type { UsersRepository } from './users.repository';

/**
 * The user behind an access token, read from the database on every request (logout, password
 * change and bans take effect at once, on every instance), but one query for all the requests
 * that arrive while the previous one runs (docs/decisions/038-batched-writes.md).
 */
export function activeUserLoader(users: Pick<UsersRepository, 'findActiveMany'>) {
  const loading = batcher((tokens: Array<{ id: number; sessionId: string | undefined }>) => users.findActiveMany(tokens), {
    maxBatch: 200,
    // Reads lock nothing: two may run at once, so one slow query does not hold up the rest.
    maxInFlight: 2,
    splitOn: isRowLevelError,
  });
  return (id: number, sessionId: string | undefined): Promise<UserRow | undefined> => loading.add({ id, sessionId });
}

/** Resolves the user an access token names, or undefined. */
export type ActiveUserLoader = ReturnType<typeof activeUserLoader>;
