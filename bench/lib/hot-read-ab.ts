import { READ_HEADERS, alternate } from './load';
import { fmt } from './output';
import { pick, type Row } from './report';

/** The share of the bare node:http limit every hot read must reach. */
export const READ_RATIO_TARGET = 0.8;

/**
 * Each hot read A/B: the app and the bare node:http baseline answering the same bytes, in turns
 * (decision 021). `label` prefixes each row's name (the reads during a vote campaign).
 */
export async function measureReads(options: {
  reads: ReadonlyArray<{ target: string; path: string }>;
  appUrl: string;
  baselineUrl: string;
  seconds: number;
  slices: number;
  warmUp: boolean;
  connections: number;
  drain: () => Promise<void>;
  kind: Row['kind'];
  label?: string;
}): Promise<Row[]> {
  const rows: Row[] = [];
  for (const r of options.reads) {
    const result = await alternate({
      appUrl: options.appUrl,
      baselineUrl: options.baselineUrl,
      request: { path: r.path, headers: READ_HEADERS },
      seconds: options.seconds,
      slices: options.slices,
      warmUp: options.warmUp,
      connections: options.connections,
      drain: options.drain,
    });
    const ratio = result.baseline ? result.app.rps / result.baseline.rps : undefined;
    const target = `${options.label ?? ''}${r.target}`;
    rows.push({
      target,
      kind: options.kind,
      path: r.path,
      ...pick(result.app),
      limitRps: result.baseline?.rps,
      ratio,
      meetsTarget: ratio === undefined ? undefined : ratio >= READ_RATIO_TARGET,
    });
    console.log(`  ${target.padEnd(44)} ${fmt(result.app.rps).padStart(7)} req/s  limit ${fmt(result.baseline?.rps).padStart(7)}`);
  }
  return rows;
}
