// Votes, joins and daily votes, their rewards and the fraud actions on them.
import type { ColumnType } from 'kysely';
import type { Id, CreatedAt, Timestamp, NullableTimestamp, Defaulted } from './columns';

/** Whether a vote or join counts: `held` ones wait for an admin, `voided` ones were undone (kept as a trace). */
type VoteStatusColumn = Defaulted<'counted' | 'held' | 'voided'>;

export interface JoinsTable {
  id: Id;
  userId: number;
  serverId: number;
  status: VoteStatusColumn;
  /** The voter's /24 or /64 network. */
  network: string | null;
  statusChangedAt: NullableTimestamp;
  createdAt: CreatedAt;
}

export interface VotesTable {
  id: Id;
  userId: number;
  serverId: number;
  type: 'like' | 'dislike';
  review: string | null;
  hidden: Defaulted<boolean>;
  status: VoteStatusColumn;
  /** The voter's /24 or /64 network. */
  network: string | null;
  statusChangedAt: NullableTimestamp;
  /** When the voter last changed the review text. */
  editedAt: NullableTimestamp;
  createdAt: CreatedAt;
}

/** A daily vote: once per player and server every 24 hours, with the name they play under. */
export interface DailyVotesTable {
  id: Id;
  userId: number;
  serverId: number;
  playerName: string | null;
  network: string | null;
  status: VoteStatusColumn;
  statusChangedAt: NullableTimestamp;
  createdAt: CreatedAt;
}

/** Where a server hears of its votes: a signed webhook, a Votifier listener (v2 token or v1 public key). */
export interface RewardTargetsTable {
  serverId: number;
  webhookUrl: string | null;
  webhookSecret: string | null;
  votifierHost: string | null;
  votifierPort: number | null;
  votifierVersion: 1 | 2 | null;
  votifierToken: string | null;
  votifierPublicKey: string | null;
  updatedAt: Timestamp;
}

/** One vote told to one target, with its attempts. */
export interface RewardDeliveriesTable {
  id: Id;
  serverId: number;
  dailyVoteId: number | null;
  kind: 'webhook' | 'votifier';
  test: Defaulted<boolean>;
  payload: ColumnType<RewardPayload, string, string>;
  status: Defaulted<'pending' | 'delivered' | 'failed'>;
  attempts: Defaulted<number>;
  lastError: string | null;
  createdAt: CreatedAt;
  finishedAt: NullableTimestamp;
}

/** What a delivery says about a vote. */
export interface RewardPayload {
  serverId: string;
  serverName: string;
  voteId: string | null;
  username: string;
  playerName: string | null;
  address: string;
  votedAt: string;
}

/** Every release or void of votes and joins by an admin. */
export interface FraudActionsTable {
  id: Id;
  adminId: number | null;
  action: 'void' | 'release';
  reason: Defaulted<string>;
  voteIds: Defaulted<number[]>;
  joinIds: Defaulted<number[]>;
  dailyVoteIds: Defaulted<number[]>;
  serverIds: Defaulted<number[]>;
  createdAt: CreatedAt;
}
