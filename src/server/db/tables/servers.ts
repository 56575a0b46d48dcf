// Servers and what describes them: filters, media, followers, events, API keys, views, player counts, searches.
import type { ColumnType } from 'kysely';
import type { Id, CreatedAt, Timestamp, NullableTimestamp, Defaulted } from './columns';

export interface ServersTable {
  id: Id;
  ownerId: number;
  name: string;
  statusMessage: Defaulted<string>;
  bio: Defaulted<string>;
  backgroundColor: Defaulted<string>;
  textColor: Defaulted<string>;
  discordLink: string | null;
  profilePicture: string | null;
  banner: string | null;
  likes: Defaulted<number>;
  dislikes: Defaulted<number>;
  totalBoosts: Defaulted<number>;
  /** Premium's unspent boost credits: its owner spends them as boosts before paying. */
  boostCredits: Defaulted<number>;
  totalJoins: Defaulted<number>;
  views: Defaulted<number>;
  lastBoostedAt: NullableTimestamp;
  currentPlayers: Defaulted<number>;
  maxPlayers: number | null;
  game: string | null;
  gameHost: string | null;
  gamePort: number | null;
  /** The owner's cfx.re join code (FiveM, RedM), for the Join link. */
  cfxCode: string | null;
  /** From the last poll that answered: the map, the game's version, the names online (cleaned). */
  gameMap: string | null;
  gameVersion: string | null;
  playerNames: string[] | null;
  /** The owner's switch: false keeps the names off the server page. */
  showPlayerNames: Defaulted<boolean>;
  online: boolean | null;
  lastSeenAt: NullableTimestamp;
  lastPolledAt: NullableTimestamp;
  pollFailures: Defaulted<number>;
  nextPollAt: NullableTimestamp;
  pollError: string | null;
  hidden: Defaulted<boolean>;
  /** The server's filter ids in order, kept equal to `server_filters` by triggers (never written by the app). */
  filterIds: Defaulted<number[]>;
  /** The month (`YYYY-MM`, UTC) `monthVotes` counts daily votes of. */
  voteMonth: string | null;
  /** Counted daily votes in `voteMonth` (a vote in a new month starts again at 1). */
  monthVotes: Defaulted<number>;
  /** The transaction that last wrote the row (`xid8` as text), kept by a trigger and logged in `server_changes` for the search index. */
  rowXid: Defaulted<string>;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

export interface MediaTable {
  id: Id;
  serverId: number | null;
  userId: number | null;
  kind: 'profile' | 'banner' | 'gallery' | 'avatar';
  storageKey: string;
  position: Defaulted<number>;
  width: number;
  height: number;
  bytes: number;
  createdAt: CreatedAt;
}

export interface FilterCategoriesTable {
  id: Id;
  name: string;
  position: Defaulted<number>;
}

export interface FiltersTable {
  id: Id;
  categoryId: number;
  name: string;
  position: Defaulted<number>;
}

export interface ServerFiltersTable {
  serverId: number;
  filterId: number;
}

/**
 * Each server's last change that the search index must read (its `row_xid`), kept by statement
 * triggers: the index reads its deltas here, so no index on `servers` follows a counter
 * (docs/decisions/078-server-changes-beside-the-row.md).
 */
export interface ServerChangesTable {
  serverId: number;
  rowXid: Defaulted<string>;
}

/** Deleted servers, written by a trigger, so the search index's delta sees deletes. */
export interface ServerIndexTombstonesTable {
  serverId: number;
  rowXid: Defaulted<string>;
}

/** A player following a server: told when it comes back online or announces an event. */
export interface FollowsTable {
  userId: number;
  serverId: number;
  createdAt: CreatedAt;
}

/** An event an owner announced to the server's followers. */
export interface ServerEventsTable {
  id: Id;
  serverId: number;
  title: string;
  details: Defaulted<string>;
  startsAt: Date;
  createdAt: CreatedAt;
}

/** An owner's key to one server's read API: only its hash is kept. */
export interface ApiKeysTable {
  id: Id;
  serverId: number;
  name: string;
  /** The key's first characters, shown in the list and used to find it. */
  prefix: string;
  /** SHA-256 of the whole key, hex. */
  hash: string;
  createdAt: CreatedAt;
  lastUsedAt: NullableTimestamp;
  revokedAt: NullableTimestamp;
}

export interface PlayerCountSamplesTable {
  serverId: number;
  sampledAt: Date;
  resolution: Defaulted<'raw' | 'hour' | 'day'>;
  players: number;
  maxPlayers: number | null;
  online: boolean;
  samples: Defaulted<number>;
  onlineSamples: Defaulted<number>;
}

export interface ServerViewsTable {
  serverId: number;
  viewer: string;
  day: string;
}

export interface SearchLogTable {
  id: Id;
  userId: number | null;
  filter: string;
  /** Who searched, once per filter and UTC day: `u:<user id>` or `n:<client network>`. */
  viewer: string;
  day: Defaulted<string>;
  createdAt: CreatedAt;
}

/** What the game answered to the last check of a claim: shown to its owner only. */
export interface ClaimAnswer {
  /** null: no answer yet, but not so many failures that the server counts as offline. */
  online: boolean | null;
  players: number | null;
  maxPlayers: number | null;
  /** The fields a code counts in, as the game reported them (cleaned): "MOTD", "Server name", … */
  seen: Array<{ field: string; text: string }>;
  error: string | null;
}

/** An owner's claim of a game address: pending until the game reports its code, then verified. */
export interface GameClaimsTable {
  id: Id;
  serverId: number;
  game: string;
  /** As the owner typed it (trimmed). */
  host: string;
  /** The host compared across listings: lower case, no trailing dot, an IP in its canonical form. */
  hostKey: string;
  port: number;
  /** The IP the address resolved to when claimed, and when verified (null: a name that never resolves, the demo's). */
  ip: string | null;
  cfxCode: string | null;
  /** What the owner puts in the game server's name, MOTD or description. */
  code: string;
  status: 'pending' | 'verified' | 'ended';
  endedReason: 'changed' | 'removed' | 'revoked' | 'superseded' | null;
  /** The admin who revoked it. */
  endedBy: number | null;
  /** The claim that proved control of the same address. */
  supersededBy: number | null;
  createdAt: CreatedAt;
  verifiedAt: NullableTimestamp;
  endedAt: NullableTimestamp;
  checkedAt: NullableTimestamp;
  /** When the poller checks a pending claim next (null: only "Check now"). */
  nextCheckAt: NullableTimestamp;
  checkFailures: Defaulted<number>;
  /** Written as JSON text, read as the object. */
  answer: ColumnType<ClaimAnswer | null, string | null | undefined, string | null>;
  /** Why the last count was not believed as reported (a verified or pending address), for admins. */
  flag: string | null;
  flaggedAt: NullableTimestamp;
}
