import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { BackupResult } from './create-backup';

/**
 * The embedded database is open in the app's process and nowhere else can read it consistently,
 * so `npm run backup` asks the running app through a Unix socket in DATA_DIR: reachable from this
 * machine only, by users who may open that file (it is made owner-only). One request, one line:
 * `backup`; one answer, one line of JSON.
 */
export const SOCKET_NAME = 'backup.sock';

/** Unix socket paths are limited to about 107 bytes. */
const MAX_SOCKET_PATH = 100;

type Answer = { ok: true; result: BackupResult } | { ok: false; error: string };

export function socketPath(dataDir: string): string {
  return path.join(dataDir, SOCKET_NAME);
}

/** Listens for backup requests; answers each with what `run` gives. Fails when the path is too long. */
export async function serveBackupRequests(
  dataDir: string,
  run: () => Promise<BackupResult>,
): Promise<{ path: string; close(): Promise<void> }> {
  const file = socketPath(dataDir);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH) throw new Error(`${file} is too long for a Unix socket (DATA_DIR too deep)`);
  // Only this process holds DATA_DIR/db (the app's pid lock), so a socket file left here is stale.
  fs.rmSync(file, { force: true });
  const server = net.createServer((socket) => {
    let request = '';
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      request += chunk;
      if (!request.includes('\n')) {
        if (request.length > 100) socket.destroy();
        return;
      }
      const reply = (answer: Answer) => socket.end(`${JSON.stringify(answer)}\n`);
      if (request.trim() !== 'backup') return reply({ ok: false, error: 'unknown request' });
      run().then(
        (result) => reply({ ok: true, result }),
        (error: unknown) => reply({ ok: false, error: error instanceof Error ? error.message : String(error) }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => {
      server.off('error', reject);
      resolve();
    });
  });
  fs.chmodSync(file, 0o600);
  return {
    path: file,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        fs.rmSync(file, { force: true });
      }),
  };
}

/**
 * Asks the app serving `dataDir` for a backup. Answers undefined when no app listens there (no
 * socket, or a stale one), the app's result otherwise; throws the app's error when it failed.
 */
export function requestBackup(dataDir: string): Promise<BackupResult | undefined> {
  const file = socketPath(dataDir);
  if (!fs.existsSync(file)) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    let answer = '';
    let connected = false;
    const socket = net.createConnection(file, () => {
      connected = true;
      socket.write('backup\n');
    });
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === 'ECONNREFUSED' || error.code === 'ENOENT')) resolve(undefined);
      else reject(error);
    });
    socket.on('end', () => {
      try {
        const parsed = JSON.parse(answer) as Answer;
        if (parsed.ok) resolve(parsed.result);
        else reject(new Error(parsed.error));
      } catch {
        reject(new Error('the app closed the backup request without an answer (did it stop?)'));
      }
    });
  });
}
