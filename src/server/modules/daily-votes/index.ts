/** The daily-votes module: a vote per player and server every 24 hours, the month's count and ranking. */
export { dailyVotesRepository, type DailyVotesRepository } from './daily-votes.repository';
export {
  dailyVotesService,
  monthOf,
  monthRange,
  DAILY_VOTE_INTERVAL_MS,
  type CountedVote,
  type DailyVotesService,
} from './daily-votes.service';
export { dailyVotesRoutes } from './daily-votes.routes';
