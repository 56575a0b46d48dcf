import type { ColumnType, Generated } from 'kysely';

/**
 * Column types the table files share. Ids are bigint in the database and numbers here (both
 * drivers parse int8 to number, see database.ts); the API turns them into strings.
 */
export type Id = Generated<number>;
// Updatable only so tests and maintenance can move time; no route sets it.
export type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
export type Defaulted<T> = ColumnType<T, T | undefined, T>;
