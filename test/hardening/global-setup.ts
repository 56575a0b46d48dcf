import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type { HardeningRow } from './report';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** A full run's table is kept in the repository; a bounded run (inside `npm test`) leaves it alone. */
const resultsFile = (scaleName: string) =>
  path.join(ROOT, scaleName === 'full' ? 'hardening/results.json' : 'test-results/hardening-bounded.json');

interface Results {
  /** One table per database the suite ran on. */
  runs: Record<string, { scale: string; finishedAt: string; rows: HardeningRow[] }>;
}

/**
 * Collects the rows every hardening test reported, prints them as one table and writes them to
 * hardening/results.json (full runs) or test-results/hardening-bounded.json (bounded runs), under
 * the database they ran on (the other database's table is kept).
 */
export default function setup(project: TestProject): () => void {
  // Both projects of the suite (the attacks, then the timing checks alone) report into one
  // directory; the last of them to finish prints and writes the table.
  const shared = globalThis as { hardeningRows?: { dir: string; users: number } };
  shared.hardeningRows ??= { dir: fs.mkdtempSync(path.join(os.tmpdir(), 'rp-hardening-')), users: 0 };
  const state = shared.hardeningRows;
  state.users++;
  const dir = state.dir;
  project.provide('hardeningRowsDir', dir);
  return () => {
    if (--state.users > 0) return;
    shared.hardeningRows = undefined;
    const rows = fs
      .readdirSync(dir)
      .flatMap((file) => fs.readFileSync(path.join(dir, file), 'utf8').split('\n'))
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as HardeningRow)
      .sort((a, b) => a.area.localeCompare(b.area) || a.check.localeCompare(b.check));
    fs.rmSync(dir, { recursive: true, force: true });
    if (rows.length === 0) return;
    const database = process.env.TEST_DATABASE_URL ? 'postgres' : 'embedded';
    const scaleName = process.env.HARDENING_SCALE === 'full' ? 'full' : 'bounded';
    console.log(`\nHardening summary (${database} database, ${scaleName} run)\n${table(rows)}`);
    const results = resultsFile(scaleName);
    const previous: Results = fs.existsSync(results) ? (JSON.parse(fs.readFileSync(results, 'utf8')) as Results) : { runs: {} };
    previous.runs[database] = { scale: scaleName, finishedAt: new Date().toISOString(), rows };
    fs.mkdirSync(path.dirname(results), { recursive: true });
    fs.writeFileSync(results, `${JSON.stringify(previous, null, 2)}\n`);
  };
}

function table(rows: HardeningRow[]): string {
  const head = ['area', 'check', 'tried', 'got through', 'detail'];
  const body = rows.map((r) => [r.area, r.check, String(r.tried), String(r.gotThrough), r.detail ?? '']);
  const widths = head.map((h, i) => Math.min(70, Math.max(h.length, ...body.map((b) => b[i]!.length))));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.slice(0, widths[i]).padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}
