/** The vote-rewards module: signed webhooks and Votifier for each counted daily vote, with a delivery log. */
export { voteRewardsRepository, type VoteRewardsRepository } from './vote-rewards.repository';
export { voteRewardsService, MAX_ATTEMPTS, type RewardSenders, type VoteRewardsService } from './vote-rewards.service';
export { voteRewardsRoutes } from './vote-rewards.routes';
export { signWebhook, verifyWebhook, SIGNATURE_HEADER } from './webhook-signature';

/** The durable queue the deliveries go through. */
export const VOTE_REWARDS_QUEUE = 'vote-rewards';
