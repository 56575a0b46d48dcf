import fs from 'node:fs';
import path from 'node:path';

/** A number as the tables print it ('–' for none). */
export const fmt = (n: number | undefined, digits = 0) =>
  n === undefined ? '–' : n.toLocaleString('en-US', { maximumFractionDigits: digits });

/** Writes a run's results as JSON formatted as the repository's other files are. */
export async function writeResults(file: string, results: unknown): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const prettier = await import('prettier');
  const options = { ...(await prettier.resolveConfig(file)), filepath: file };
  fs.writeFileSync(file, await prettier.format(JSON.stringify(results), options));
}
