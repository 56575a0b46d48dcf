import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { ROOT } from './app-process';
import { READ_HEADERS } from './load';

/** An answer as recorded for the baseline server: its status, headers and body as sent (compressed). */
export interface Recorded {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'content-length']);

/** One GET with exactly the headers the load will send, body kept as bytes (no decompression). */
export function record(baseUrl: string, requestPath: string): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    http
      .get(baseUrl + requestPath, { headers: READ_HEADERS }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = String(v);
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('base64') });
        });
      })
      .on('error', reject);
  });
}

/** A bare node:http server replaying the recorded answers from memory (bench/baseline-server.mjs). */
export async function startBaseline(responsesFile: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench', 'baseline-server.mjs'), responsesFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the baseline server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}
