import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema';

/** The database or an open transaction: what every repository method runs its queries on. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** An open transaction, handed from a service to the repository methods that must share it. */
export type Tx = Transaction<Database>;

/**
 * Runs `work` in one transaction: committed when it resolves, rolled back when it throws.
 * Services get this instead of the database, so they group writes without writing SQL.
 */
export type InTransaction = <T>(work: (tx: Tx) => Promise<T>) => Promise<T>;

/** The `InTransaction` of a database. */
export const transactionRunner =
  (db: Kysely<Database>): InTransaction =>
  (work) =>
    db.transaction().execute(work);
