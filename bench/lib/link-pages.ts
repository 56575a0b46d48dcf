import { PRERENDER_IDS } from '../../src/shared/prerender';
import { load, type Measured } from './load';
import { fmt } from './output';
import { pick, type Row } from './report';
import { shuffled } from './search-mix';
import { accepted } from './votes';

/** A shared link's opener: p99 at most this. */
export const PAGE_P99_TARGET_MS = 20;

/** What a browser sends that the app reads: a browser's User-Agent (a missing one is a robot, whose view never counts). */
const BROWSER = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'accept-encoding': 'gzip, deflate, br',
  'accept-language': 'en-US,en;q=0.9',
};

/**
 * Each request a new visitor: an address in a /24 network of its own (views count once per
 * network, server and day), starting at a random network of 11.0.0.0–99.255.255.0 each run so a
 * rerun the same day is not the same visitors.
 */
function visitors(): () => string {
  let n = Math.floor(Math.random() * 89 * 65_536);
  return () => {
    const network = n++ % (89 * 65_536);
    return `${11 + (network >> 16)}.${(network >> 8) & 255}.${network & 255}.7`;
  };
}

/**
 * A server page as a shared link opens it, every request another listed server (all of them in a
 * shuffled order) from a new visitor, so neither the page caches nor the view counter's memory of
 * who was counted helps: the HTML the app serves (rendered on the server from the API's answers,
 * or the app's frame when four renderings are already under way), and the API call with which
 * the web app then loads the page and counts the view (`?t=…`, as it asks). Answers the rows and
 * the API answers that should each have counted a view.
 */
export async function linkPages(options: {
  baseUrl: string;
  visible: readonly number[];
  seconds: number;
  connections: number;
  warmUp: boolean;
  html: boolean;
  drain: () => Promise<void>;
}): Promise<{ rows: Row[]; viewsSent: number; viewsAccepted: number }> {
  const servers = shuffled(options.visible, 0x2545f491);
  let at = 0;
  const nextServer = () => servers[at++ % servers.length]!;
  const visitor = visitors();
  const rows: Row[] = [];
  let viewsSent = 0;
  let viewsAccepted = 0;

  const api = () => {
    viewsSent++;
    return {
      path: `/api/servers/${nextServer()}?t=${Date.now()}`,
      headers: { ...BROWSER, accept: 'application/json', 'cache-control': 'no-cache', 'x-forwarded-for': visitor() },
    };
  };
  const html = () => ({
    path: `/servers/${nextServer()}`,
    headers: { ...BROWSER, accept: 'text/html,application/xhtml+xml', 'x-forwarded-for': visitor() },
  });

  const kinds = [
    { target: 'server page API as the app asks (t=…), a new visitor and server each', path: '/api/servers/{id}?t=…', next: api },
    ...(options.html
      ? [{ target: 'server page HTML (server-rendered), a new visitor and server each', path: '/servers/{id}', next: html }]
      : []),
  ];
  // Every API answer in 2xx (the warm-up's too) counted a view.
  const countViews = (m: Measured) => {
    viewsAccepted += accepted(m.statuses);
  };
  for (const kind of kinds) {
    if (options.warmUp) {
      const warm = await load({ baseUrl: options.baseUrl, seconds: 1, connections: 10, next: kind.next });
      if (kind.next === api) countViews(warm);
      await options.drain();
    }
    // The HTML: how many answers were the rendered page, not the frame, asked beside the load.
    const probe = kind.next === html ? renderedShare(options.baseUrl, html) : undefined;
    const result = await load({ baseUrl: options.baseUrl, seconds: options.seconds, connections: options.connections, next: kind.next });
    const share = await probe?.stop();
    await options.drain();
    if (kind.next === api) countViews(result);
    rows.push({
      target: share ? `${kind.target}; rendered ${share.rendered} of ${share.asked} asked beside it` : kind.target,
      kind: 'page',
      path: kind.path,
      ...pick(result),
      repeated: at > servers.length,
      meetsTarget: result.p99 <= PAGE_P99_TARGET_MS,
    });
    console.log(`  ${kind.target.padEnd(70)} ${fmt(result.rps).padStart(7)} req/s  p99 ${fmt(result.p99, 1)} ms`);
  }
  return { rows, viewsSent, viewsAccepted };
}

/** Asks for pages one at a time beside a load and counts those rendered with their content. */
function renderedShare(baseUrl: string, next: () => { path: string; headers: Record<string, string> }) {
  let stopped = false;
  let asked = 0;
  let rendered = 0;
  const running = (async () => {
    while (!stopped) {
      const { path, headers } = next();
      const { 'accept-encoding': _encoding, ...plain } = headers;
      const response = await fetch(baseUrl + path, { headers: plain, signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
      const text = response ? await response.text() : '';
      asked++;
      if (text.includes(`id="${PRERENDER_IDS.answers}"`)) rendered++;
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await running;
      return { asked, rendered };
    },
  };
}
