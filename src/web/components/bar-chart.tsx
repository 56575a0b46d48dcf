import { useT } from '../i18n/use-t';
import { dateFormat, formatNumber, utcDay } from '../lib/format';
import { useElementWidth } from '../lib/use-element-width';

export interface ChartSeries<K extends string> {
  key: K;
  label: string;
  /** A CSS colour for the bars and the legend dot. */
  color: string;
}

/** `2026-03-13` → `Mar 13` in the page's language (the API's days are UTC days). */
export function dayLabel(day: string): string {
  const date = utcDay(day);
  return date ? dateFormat({ month: 'short', day: 'numeric', timeZone: 'UTC' }).format(date) : day;
}

/** A round axis maximum at or above `value`: 1, 2, 5, 10, 20, 50 … */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

const PAD = { top: 10, right: 8, bottom: 24, left: 40 };

/**
 * Bars per day, stacked when there is more than one series; drawn with SVG at the container's
 * real width so labels stay readable on phones. Hovering a day shows its numbers (SVG `<title>`).
 */
export function BarChart<K extends string>({
  title,
  rows,
  series,
  format = formatNumber,
  height = 180,
  testId,
}: {
  title: string;
  rows: ReadonlyArray<{ day: string } & Record<K, number>>;
  series: ReadonlyArray<ChartSeries<K>>;
  format?: (n: number) => string;
  height?: number;
  testId?: string;
}) {
  const { t } = useT();
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const plotW = Math.max(10, width - PAD.left - PAD.right);
  const plotH = height - PAD.top - PAD.bottom;
  const sums = rows.map((r) => series.reduce((s, x) => s + r[x.key], 0));
  const max = niceMax(Math.max(0, ...sums));
  const step = rows.length > 0 ? plotW / rows.length : plotW;
  const barW = Math.max(2, Math.min(28, step * 0.7));
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const total = sums.reduce((a, b) => a + b, 0);
  // At most ~7 day labels, so they never overlap.
  const every = Math.max(1, Math.ceil(rows.length / Math.max(2, Math.floor(plotW / 64))));

  return (
    <figure className="flex min-w-0 flex-col gap-2" data-testid={testId}>
      <figcaption className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-semibold text-slate-100">{title}</span>
        <span className="tabular-nums text-slate-400">{t('common.chart.total', { total: format(total) })}</span>
      </figcaption>
      {/* The svg is taken out of the flow so its width never widens the box it is measured from. */}
      <div ref={ref} className="relative w-full min-w-0 overflow-hidden" style={{ height }}>
        <svg
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          role="img"
          aria-label={t('common.chart.summary', { title, total: format(total), days: rows.length })}
          className="absolute inset-0 block"
        >
          {/* The middle line only when it is a whole number: counts have no half views. */}
          {(Number.isInteger(max / 2) ? [0, 0.5, 1] : [0, 1]).map((f) => (
            <g key={f}>
              <line x1={PAD.left} x2={width - PAD.right} y1={y(max * f)} y2={y(max * f)} stroke="rgba(255,255,255,0.08)" />
              <text x={PAD.left - 6} y={y(max * f) + 4} textAnchor="end" fontSize="11" fill="#94a3b8">
                {format(max * f)}
              </text>
            </g>
          ))}
          {rows.map((r, i) => {
            const x = PAD.left + i * step + (step - barW) / 2;
            let base = 0;
            const detail = series.map((s) => `${s.label}: ${format(r[s.key])}`).join(', ');
            return (
              <g key={r.day} data-day={r.day}>
                <title>{`${dayLabel(r.day)} — ${detail}`}</title>
                {/* A full-height transparent target so hovering anywhere above a day shows its numbers. */}
                <rect x={PAD.left + i * step} y={PAD.top} width={step} height={plotH} fill="transparent" />
                {series.map((s) => {
                  const v = r[s.key];
                  if (v <= 0) return null;
                  const top = y(base + v);
                  const h = y(base) - top;
                  base += v;
                  return <rect key={s.key} x={x} y={top} width={barW} height={Math.max(1, h)} rx={Math.min(3, barW / 3)} fill={s.color} />;
                })}
              </g>
            );
          })}
          {rows.map((r, i) =>
            i % every === 0 || i === rows.length - 1 ? (
              <text
                key={r.day}
                x={PAD.left + i * step + step / 2}
                y={height - 6}
                textAnchor={i === rows.length - 1 && rows.length > 1 ? 'end' : 'middle'}
                fontSize="11"
                fill="#94a3b8"
              >
                {i % every === 0 || rows.length <= 1 ? dayLabel(r.day) : ''}
              </text>
            ) : null,
          )}
        </svg>
      </div>
      {series.length > 1 ? (
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-300" aria-label={t('common.chart.legend', { title })}>
          {series.map((s) => (
            <li key={s.key} className="flex items-center gap-1.5">
              <span aria-hidden="true" className="size-2.5 rounded-full" style={{ backgroundColor: s.color }} />
              {s.label}
            </li>
          ))}
        </ul>
      ) : null}
    </figure>
  );
}
