import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    hardeningRowsDir: string;
  }
}

/**
 * One row of the hardening table: what an attack tried and how much of it got through. A
 * protection holds when `gotThrough` is 0; the test that reports the row also asserts that.
 */
export interface HardeningRow {
  /** OWASP-style area: "SSRF", "Object-level access", "Tokens", "Fuzz" … */
  area: string;
  /** What was tried, in a few words. */
  check: string;
  /** How many variants or requests were thrown at it. */
  tried: number;
  /** How many of them the attacker won (should be 0). */
  gotThrough: number;
  /** Extra figures: routes covered, timings, peak RSS … */
  detail?: string;
}

/** Records a row for the summary table printed at the end and written to hardening/results.json. */
export function report(row: HardeningRow): void {
  const dir = inject('hardeningRowsDir');
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  fs.appendFileSync(path.join(dir, `${process.pid}.jsonl`), `${JSON.stringify(row)}\n`);
}

/** `npm test` runs the suite bounded (few iterations); `npm run test:hardening` runs it in full. */
export const fullRun = process.env.HARDENING_SCALE === 'full';

/** The iteration count for this run: `bounded` inside `npm test`, `full` for `npm run test:hardening`. */
export function scale(bounded: number, full: number): number {
  return fullRun ? full : bounded;
}
