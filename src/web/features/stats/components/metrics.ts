import type { StatsDay } from '../../../../shared/schemas/stats';

export type Metric = Exclude<keyof StatsDay, 'day'>;

/** The five numbers of a server's day, their labels and chart colours. */
export const METRICS: ReadonlyArray<{ key: Metric; label: string; color: string }> = [
  { key: 'views', label: 'Views', color: '#a78bfa' },
  { key: 'joins', label: 'Joins', color: '#34d399' },
  { key: 'likes', label: 'Likes', color: '#60a5fa' },
  { key: 'dislikes', label: 'Dislikes', color: '#f87171' },
  { key: 'boosts', label: 'Boosts', color: '#fbbf24' },
];
