import { useT } from '../../../i18n/use-t';
import { dateFormat, formatNumber } from '../../../lib/format';
import { useElementWidth } from '../../../lib/use-element-width';

const PAD = { top: 10, right: 8, bottom: 22, left: 36 };

/**
 * Players over time as an SVG area line, at the container's real width. Offline samples show as
 * gaps along the axis (red ticks), so downtime is visible, not just a zero.
 */
export function PlayerLineChart({
  points,
  height = 180,
}: {
  points: ReadonlyArray<{ t: string; players: number; online: boolean }>;
  height?: number;
}) {
  const { t } = useT();
  const timeFormat = dateFormat({ month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const plotW = Math.max(10, width - PAD.left - PAD.right);
  const plotH = height - PAD.top - PAD.bottom;
  const times = points.map((p) => Date.parse(p.t));
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const max = Math.max(1, ...points.map((p) => p.players));
  const x = (t: number) => PAD.left + (t1 === t0 ? plotW / 2 : ((t - t0) / (t1 - t0)) * plotW);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const line = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(times[i]!).toFixed(1)},${y(p.players).toFixed(1)}`).join(' ');
  // eslint-disable-next-line lingui/no-unlocalized-strings -- SVG path data, not text
  const area = points.length > 0 ? `${line} L${x(times.at(-1)!).toFixed(1)},${y(0)} L${x(times[0]!).toFixed(1)},${y(0)} Z` : '';

  return (
    <div ref={ref} className="relative w-full min-w-0 overflow-hidden" style={{ height }}>
      <svg
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={t('server.chart.label', { max: formatNumber(max) })}
        className="absolute inset-0 block"
      >
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line x1={PAD.left} x2={width - PAD.right} y1={y(max * f)} y2={y(max * f)} stroke="rgba(255,255,255,0.08)" />
            <text x={PAD.left - 6} y={y(max * f) + 4} textAnchor="end" fontSize="11" fill="#94a3b8">
              {formatNumber(Math.round(max * f))}
            </text>
          </g>
        ))}
        <path d={area} fill="rgba(139, 92, 246, 0.18)" />
        <path d={line} fill="none" stroke="#a78bfa" strokeWidth="2" strokeLinejoin="round" />
        {points.map((p, i) =>
          p.online ? null : (
            <rect key={p.t} x={x(times[i]!) - 1} y={y(0) - 3} width={2} height={6} fill="#f87171">
              <title>{t('server.chart.offline', { time: timeFormat.format(new Date(p.t)) })}</title>
            </rect>
          ),
        )}
        {points.length > 0 ? (
          <>
            <text x={PAD.left} y={height - 6} fontSize="11" fill="#94a3b8">
              {timeFormat.format(new Date(t0))}
            </text>
            <text x={width - PAD.right} y={height - 6} fontSize="11" fill="#94a3b8" textAnchor="end">
              {timeFormat.format(new Date(t1))}
            </text>
          </>
        ) : null}
      </svg>
    </div>
  );
}
