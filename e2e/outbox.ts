import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

/**
 * The first match of `pattern` in the newest `.eml` the e2e server wrote to `to` (its DATA_DIR
 * outbox; no SMTP_URL is set). A quoted-printable mail has its soft breaks and =XX escapes undone
 * first; a 7bit one is read as it is (a link's `=AB…` is not an escape there).
 */
export async function fromMailTo(to: string, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  const outbox = path.join(inject('dataDir'), 'outbox');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')) : [];
    const newestFirst = files.map((file) => ({ file, at: fs.statSync(path.join(outbox, file)).mtimeMs })).sort((a, b) => b.at - a.at);
    for (const { file } of newestFirst) {
      const raw = fs.readFileSync(path.join(outbox, file), 'utf8');
      if (!new RegExp(`^To: .*${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'im').test(raw)) continue;
      const quotedPrintable = /^Content-Transfer-Encoding: quoted-printable/im.test(raw);
      const text = quotedPrintable
        ? raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
        : raw;
      const found = pattern.exec(text)?.[1];
      if (found) return found;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  // Say what the outbox held for this address, so a miss can be told from a slow write.
  const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')) : [];
  const forAddress = files.filter((f) => fs.readFileSync(path.join(outbox, f), 'utf8').includes(to));
  const sample = forAddress.map((f) => fs.readFileSync(path.join(outbox, f), 'utf8').slice(0, 1500)).join('\n---\n');
  throw new Error(`no e-mail to ${to} matching ${pattern} in ${outbox} (${files.length} mails, ${forAddress.length} naming it)\n${sample}`);
}

/** The token of the newest confirmation link mailed to `to`. */
export const confirmTokenFor = (to: string) => fromMailTo(to, /confirm-email=([\w-]+)/);
