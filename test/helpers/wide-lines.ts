import fs from 'node:fs';
import path from 'node:path';

/**
 * The lines of a folder's `.js` files with a character past U+00FF, as `file:line: text`. V8 holds a
 * module's source for as long as the process runs, and one such character anywhere (a comment or a
 * regular expression esbuild leaves as written) makes it store the whole text at two bytes a character.
 */
export function wideLines(dir: string): string[] {
  const found: string[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    fs.readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/[\u0100-\uffff]/.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
  }
  return found;
}
