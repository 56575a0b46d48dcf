import type { Measured } from './load';
import { fmt } from './output';

/** What `--only` can pick: each scenario of the benchmark. */
export const KINDS = ['read', 'search', 'mixed', 'page', 'vote', 'volume'] as const;
export type Kind = (typeof KINDS)[number];

/** One line of the table. */
export interface Row {
  target: string;
  kind: Kind;
  path: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  statuses: Record<string, number>;
  requests: number;
  limitRps?: number;
  ratio?: number;
  /** A kind's distinct queries (or servers) ran out and some came up again. */
  repeated?: boolean;
  /** Printed instead of req/s (a lag, a rate with its unit). */
  value?: string;
  /** A measure that is not a load (a lag): no request count to judge. */
  noLoad?: boolean;
  meetsTarget?: boolean;
  /** What makes the row prove nothing, or wrong whatever the speed (fails the quick run too). */
  problem?: string;
}

export function pick(m: Measured) {
  return { rps: m.rps, p50: m.p50, p99: m.p99, errors: m.errors, non2xx: m.non2xx, statuses: m.statuses, requests: m.requests };
}

function errorCell(r: Row): string {
  const bad = r.errors + r.non2xx;
  if (bad === 0) return '0';
  const codes = Object.entries(r.statuses)
    .filter(([c]) => !c.startsWith('2'))
    .map(([c, n]) => `${c}×${n}`)
    .join(' ');
  return `${bad} (${codes || 'conn'})`;
}

/** The Markdown table of a run; the quick run leaves out whether targets were met (it never judges speed). */
export function table(
  rows: Row[],
  app: { startupMs: number; peakRssMb: number; rssTargetMb: number } | undefined,
  quick: boolean,
  seed: number,
): string {
  const lines = [
    '| target | req/s | p50 ms | p99 ms | errors | limit req/s | app/limit |' + (quick ? '' : ' target met |'),
    '|---|---:|---:|---:|---:|---:|---:|' + (quick ? '' : ':---:|'),
  ];
  const met = (ok: boolean | undefined) => (quick ? [] : [ok === undefined ? '' : ok ? '✓' : '✖']);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  for (const r of rows) {
    lines.push(
      line([
        `${r.target}${r.repeated ? ' (repeated)' : ''}`,
        r.value ?? fmt(r.rps),
        r.noLoad ? '' : fmt(r.p50, 1),
        r.noLoad ? '' : fmt(r.p99, 1),
        r.noLoad ? '' : errorCell(r),
        fmt(r.limitRps),
        r.ratio === undefined ? '–' : r.ratio.toFixed(2),
        ...met(r.meetsTarget),
      ]),
    );
  }
  if (app) {
    lines.push(line(['app start-up (spawn → /api/ready 200)', `${fmt(app.startupMs)} ms`, '', '', '', '', '', ...met(undefined)]));
    lines.push(
      line(['app peak RSS, all scenarios', `${fmt(app.peakRssMb)} MB`, '', '', '', '', '', ...met(app.peakRssMb <= app.rssTargetMb)]),
    );
  }
  lines.push(line(['data seed', String(seed), '', '', '', '', '', ...met(undefined)]));
  return lines.join('\n');
}
