// The site itself: settings, testimonials, reports to moderators.
import type { ColumnType } from 'kysely';
import type { Id, CreatedAt, Timestamp, NullableTimestamp, Defaulted } from './columns';

export interface SettingsTable {
  key: string;
  value: ColumnType<unknown, string, string>;
  updatedAt: Timestamp;
}

export interface TestimonialsTable {
  id: Id;
  ownerId: number;
  content: string;
  hidden: Defaulted<boolean>;
  createdAt: CreatedAt;
}

export interface ReportsTable {
  id: Id;
  reporterId: number | null;
  serverId: number;
  voteId: number | null;
  reason: string;
  status: Defaulted<'open' | 'actioned' | 'dismissed'>;
  createdAt: CreatedAt;
  resolvedAt: NullableTimestamp;
}
