import type { StatsDay } from '../../../../shared/schemas/stats';

export type Metric = Exclude<keyof StatsDay, 'day' | 'held' | 'voided'>;

/** The five numbers of a server's day, their labels and chart colours. */
export const METRICS: ReadonlyArray<{ key: Metric; label: string; color: string }> = [
  { key: 'views', label: 'Views', color: '#a78bfa' },
  { key: 'joins', label: 'Joins', color: '#34d399' },
  { key: 'likes', label: 'Likes', color: '#60a5fa' },
  { key: 'dislikes', label: 'Dislikes', color: '#f87171' },
  { key: 'boosts', label: 'Boosts', color: '#fbbf24' },
];

/** Votes by how they stand: counted in rankings, held for an admin's look, voided by one. */
export const VOTE_STANDING = [
  { key: 'counted', label: 'Counted', color: '#34d399' },
  { key: 'held', label: 'Held', color: '#fbbf24' },
  { key: 'voided', label: 'Voided', color: '#f87171' },
] as const;

/** A day's votes by standing: counted are the day's likes, dislikes and joins that count. */
export function votesByStanding(day: StatsDay): { day: string; counted: number; held: number; voided: number } {
  return { day: day.day, counted: day.likes + day.dislikes + day.joins, held: day.held, voided: day.voided };
}
