import http from 'node:http';
import { ListLag } from './list-lag';

/** A list asked for again and again while votes stream: JSON from the API, or the answer a rendered page carries. */
export interface ListSample {
  path: string;
  everyMs: number;
  /** A rendered HTML page: the key of the API answer in its `rp-answers` element holding the list. */
  answer?: string;
}

/** The list of servers in an answer: the API's JSON, or the answer under `key` in a rendered page's answers. */
function listIn(body: string, key: string | undefined): Array<{ id: string; likes: number }> | undefined {
  if (key === undefined) return JSON.parse(body) as Array<{ id: string; likes: number }>;
  const match = /<script id="rp-answers"[^>]*>([\s\S]*?)<\/script>/.exec(body);
  // The app's frame (the page was not rendered): no list shown, nothing to compare.
  if (!match) return [];
  const answers = JSON.parse(match[1]!) as Record<string, { data: Array<{ id: string; likes: number }> }>;
  return answers[key]?.data;
}

/**
 * Asks for `sample.path` every `everyMs` on a connection of its own (never behind the votes for a
 * socket), the web app's `t=` timestamp added as it does, and keeps each answer's lag (`ListLag`).
 * `stop` resolves once the sample under way is done.
 */
export function sampleList(baseUrl: string, sample: ListSample) {
  const base = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const lag = new ListLag();
  let stopped = false;

  const once = (): Promise<void> =>
    new Promise((resolve) => {
      const askedAt = performance.now();
      // A page is asked for as a link opens it; an API list as the web app asks.
      const path = sample.answer ? sample.path : `${sample.path}${sample.path.includes('?') ? '&' : '?'}t=${Date.now()}`;
      const request = http.get({ host: base.hostname, port: base.port, agent, path, timeout: 10_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const list = res.statusCode === 200 ? listIn(Buffer.concat(chunks).toString(), sample.answer) : undefined;
          if (!list) lag.failed++;
          else
            lag.sample(
              askedAt,
              list.map((s) => ({ id: Number(s.id), likes: s.likes })),
            );
          resolve();
        });
      });
      // A list not answered within 10 s is a failed sample, not a wait that hides the lag.
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', () => {
        lag.failed++;
        resolve();
      });
    });

  const running = (async () => {
    while (!stopped) {
      const next = performance.now() + sample.everyMs;
      await once();
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    }
  })();

  return {
    lag,
    stop: async () => {
      stopped = true;
      await running;
      agent.destroy();
    },
  };
}
