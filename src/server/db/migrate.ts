import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { openDatabase, type DatabaseHandle } from './database';
import * as initial from './migrations/20261122_0500_initial';
import * as subscriptionEvents from './migrations/20261122_0700_subscription_events';
import * as pushDeliveries from './migrations/20261122_0800_push_deliveries';
import * as sessionsAndCodes from './migrations/20261123_1000_sessions_and_codes';
import * as paymentReversals from './migrations/20261123_1100_payment_reversals';
import * as searchLogPerViewerDay from './migrations/20261123_1200_search_log_per_viewer_day';
import * as searchAtScale from './migrations/20261123_1300_search_at_scale';
import * as searchIndexVersions from './migrations/20261124_0800_search_index_versions';
import * as dailyVotes from './migrations/20261124_0930_daily_votes';
import * as voteRewards from './migrations/20261124_1000_vote_rewards';
import * as apiKeys from './migrations/20261124_1030_api_keys';
import * as connect from './migrations/20261124_1045_connect';
import * as follows from './migrations/20261124_1100_follows';
import * as gameDetails from './migrations/20261124_1115_game_details';
import * as rankingIntegrity from './migrations/20261124_1130_ranking_integrity';
import * as reviewEdits from './migrations/20261124_1300_review_edits';
import * as fraudDailyVotes from './migrations/20261126_1000_fraud_daily_votes';
import * as boostCreditBalance from './migrations/20261126_1400_boost_credit_balance';
import * as playersSortPolledFirst from './migrations/20261126_1500_players_sort_polled_first';
import * as reviewListing from './migrations/20261129_0000_review_listing';
import * as gameClaims from './migrations/20261203_0900_game_claims';
import * as discord from './migrations/20261203_1000_discord';
import * as dailyVotesHeldIndex from './migrations/20261203_1100_daily_votes_held_index';
import * as userLocale from './migrations/20261203_1200_user_locale';
import * as disputeOutcomes from './migrations/20261203_1300_dispute_outcomes';
import * as serverPageUncached from './migrations/20261203_1310_server_page_uncached';
import * as dailyVotesNetworkIndex from './migrations/20261203_2300_daily_votes_network_index';
import * as indexesTheSearchIndexReplaced from './migrations/20261204_1400_indexes_the_search_index_replaced';
import * as historyIndexOnly from './migrations/20261205_2300_history_index_only';
import * as serverChanges from './migrations/20261207_0500_server_changes';
import * as linkStateTokenVersion from './migrations/20261208_0100_link_state_token_version';

/**
 * Migrations are listed here rather than read from disk, so they run the same under tsx,
 * in tests and in any bundle. Names are timestamps; a landed migration is never edited.
 */
const migrations: Record<string, Migration> = {
  '20261122_0500_initial': initial,
  '20261122_0700_subscription_events': subscriptionEvents,
  '20261122_0800_push_deliveries': pushDeliveries,
  '20261123_1000_sessions_and_codes': sessionsAndCodes,
  '20261123_1100_payment_reversals': paymentReversals,
  '20261123_1200_search_log_per_viewer_day': searchLogPerViewerDay,
  '20261123_1300_search_at_scale': searchAtScale,
  '20261124_0800_search_index_versions': searchIndexVersions,
  '20261124_0930_daily_votes': dailyVotes,
  '20261124_1000_vote_rewards': voteRewards,
  '20261124_1030_api_keys': apiKeys,
  '20261124_1045_connect': connect,
  '20261124_1100_follows': follows,
  '20261124_1115_game_details': gameDetails,
  '20261124_1130_ranking_integrity': rankingIntegrity,
  '20261124_1300_review_edits': reviewEdits,
  '20261126_1000_fraud_daily_votes': fraudDailyVotes,
  '20261126_1400_boost_credit_balance': boostCreditBalance,
  '20261126_1500_players_sort_polled_first': playersSortPolledFirst,
  '20261129_0000_review_listing': reviewListing,
  '20261203_0900_game_claims': gameClaims,
  '20261203_1000_discord': discord,
  '20261203_1100_daily_votes_held_index': dailyVotesHeldIndex,
  '20261203_1200_user_locale': userLocale,
  '20261203_1300_dispute_outcomes': disputeOutcomes,
  '20261203_1310_server_page_uncached': serverPageUncached,
  '20261203_2300_daily_votes_network_index': dailyVotesNetworkIndex,
  '20261204_1400_indexes_the_search_index_replaced': indexesTheSearchIndexReplaced,
  '20261205_2300_history_index_only': historyIndexOnly,
  '20261207_0500_server_changes': serverChanges,
  '20261208_0100_link_state_token_version': linkStateTokenVersion,
};

class StaticProvider implements MigrationProvider {
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(migrations);
  }
}

/**
 * Migrates the database of `handle`. A migration may run longer than a request may (an index built
 * on a large table, a busy server at start-up), so on PostgreSQL it gets a connection of its own
 * without the statement timeout that protects requests.
 */
export async function migrateDatabase(handle: DatabaseHandle, url: string | undefined): Promise<string[]> {
  if (handle.kind !== 'postgres' || !url) return migrateToLatest(handle.db);
  const own = await openDatabase({ kind: 'postgres', url, poolSize: 1, statementTimeoutMs: 0 });
  try {
    return await migrateToLatest(own.db);
  } finally {
    await own.close();
  }
}

/** Brings the schema up to date; throws with the failing migration's error. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new StaticProvider() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
