import type { StatsDay } from '../../../../shared/schemas/stats';
import type { MessageId } from '../../../i18n/catalogs/index';

export type Metric = Exclude<keyof StatsDay, 'day' | 'held' | 'voided'>;

/** The five numbers of a server's day, their labels (message ids, translated where shown) and chart colours. */
export const METRICS: ReadonlyArray<{ key: Metric; label: MessageId; perDay: MessageId; color: string }> = [
  { key: 'views', label: 'owner.stats.metric.views', perDay: 'owner.stats.perDay.views', color: '#a78bfa' },
  { key: 'joins', label: 'owner.stats.metric.joins', perDay: 'owner.stats.perDay.joins', color: '#34d399' },
  { key: 'likes', label: 'owner.stats.metric.likes', perDay: 'owner.stats.perDay.likes', color: '#60a5fa' },
  { key: 'dislikes', label: 'owner.stats.metric.dislikes', perDay: 'owner.stats.perDay.dislikes', color: '#f87171' },
  { key: 'boosts', label: 'owner.stats.metric.boosts', perDay: 'owner.stats.perDay.boosts', color: '#fbbf24' },
];

/** Votes by how they stand: counted in rankings, held for an admin's look, voided by one. */
export const VOTE_STANDING = [
  { key: 'counted', label: 'owner.stats.standing.counted', color: '#34d399' },
  { key: 'held', label: 'owner.stats.standing.held', color: '#fbbf24' },
  { key: 'voided', label: 'owner.stats.standing.voided', color: '#f87171' },
] as const satisfies ReadonlyArray<{ key: string; label: MessageId; color: string }>;

/** A day's votes by standing: counted are the day's likes, dislikes and joins that count. */
export function votesByStanding(day: StatsDay): { day: string; counted: number; held: number; voided: number } {
  return { day: day.day, counted: day.likes + day.dislikes + day.joins, held: day.held, voided: day.voided };
}
