import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clock } from './instance';

export const NGINX = '/usr/sbin/nginx';

/**
 * How long nginx leaves an instance out after a failure (`fail_timeout`): longer than the drain,
 * so nginx does not try a draining instance again before its listener has closed. It is also how
 * long a rolling restart waits after an instance is ready before stopping the next one: nginx
 * tries an instance again only after its `fail_timeout`, and with every instance out at once it
 * answers 502 ("no live upstreams") whatever is back.
 */
export const failTimeoutSeconds = (drainMs: number) => Math.ceil(drainMs / 1000) + 1;

/**
 * The part of the configuration a deployment copies (README, "Several instances behind a
 * reverse proxy"); only addresses differ. Why each line is there:
 * - `zone`: the upstream's failure state is shared by every worker process, so one failure takes
 *   an instance out for all of them at once.
 * - `max_fails=1 fail_timeout`: one failure (a refused connection, or a GET a draining instance
 *   answered 503) takes the instance out of the rotation for longer than its drain.
 * - `keepalive` with `keepalive_timeout` shorter than `SHUTDOWN_DRAIN_MS`: by the end of a drain nginx
 *   has itself closed every kept-alive connection to that instance (its answers while draining say
 *   `Connection: close`), so none is closed by the instance under a request nginx is sending.
 */
export function upstreamBlock(servers: readonly string[], drainMs: number): string {
  const keepaliveSeconds = Math.max(1, Math.floor(drainMs / 1000) - 1);
  return [
    'upstream rpservers {',
    '  zone rpservers 64k;',
    ...servers.map((s) => `  server ${s} max_fails=1 fail_timeout=${failTimeoutSeconds(drainMs)}s;`),
    '  keepalive 32;',
    `  keepalive_timeout ${keepaliveSeconds}s;`,
    '}',
  ].join('\n');
}

/**
 * The proxy settings of the `location`, as a deployment uses them:
 * - `X-Next-Upstream: http_503` tells the app that nginx passes a GET answered 503 on to the other
 *   instance: a draining instance then answers its GETs 503, nginx answers them elsewhere and takes
 *   the instance out (see `max_fails`) before it stops accepting, so no POST is on its way to it then.
 * - `proxy_next_upstream error timeout http_503` with 2 tries: a refused connection goes to the other
 *   instance, POSTs too (nothing was sent); a GET is passed on after a 503 or a lost connection; a
 *   POST that was sent is never sent twice (nginx's default, kept: a vote must not be cast twice).
 */
export const PROXY_SETTINGS = `proxy_pass http://rpservers;
proxy_http_version 1.1;
proxy_set_header Host $host;
proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
proxy_set_header X-Forwarded-Proto $scheme;
proxy_set_header Upgrade $http_upgrade;          # socket.io's WebSocket upgrade
proxy_set_header Connection $connection_upgrade; # empty otherwise: the upstream connection stays open
proxy_set_header X-Next-Upstream http_503;       # a draining instance answers GETs 503: nginx takes it out
proxy_next_upstream error timeout http_503;
proxy_next_upstream_tries 2;
proxy_next_upstream_timeout 10s;
proxy_connect_timeout 2s;`;

/** `Connection: upgrade` for WebSockets, and no Connection header otherwise (`close` would end keep-alive). */
export const CONNECTION_MAP = `map $http_upgrade $connection_upgrade {
  default upgrade;
  ''      '';
}`;

/** One line of the access log: what nginx did with one request. */
export interface Logged {
  /** When nginx finished the request, and when it started (ms since the epoch). */
  end: number;
  start: number;
  status: number;
  method: string;
  uri: string;
  /** Every upstream tried, in order (`127.0.0.1:3001`); empty when none was. */
  upstreams: string[];
  upstreamStatuses: string[];
  /** The load generator's id of the request (its `X-Ops-Request` header). */
  id: number | undefined;
}

export interface Nginx {
  url: string;
  /** The whole configuration file, as run. */
  config: string;
  log(): Logged[];
  errors(): string;
  /** Copies the configuration and both logs into `dir` (to look at a failed run). */
  keepLogs(dir: string): void;
  stop(): Promise<void>;
}

const indent = (text: string, by: string) =>
  text
    .split('\n')
    .map((line) => by + line)
    .join('\n');

/**
 * nginx as a process of this run: its own prefix, configuration, pid and logs in a temporary
 * directory, listening on `port` at 127.0.0.1 (never the system's nginx service or port 80).
 */
export async function startNginx(options: { port: number; upstreams: readonly string[]; drainMs: number }): Promise<Nginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-ops-nginx-'));
  // Worker processes run as an unprivileged user when nginx starts as root: they must reach the temp paths.
  fs.chmodSync(dir, 0o755);
  const temp = (name: string) => path.join(dir, 'temp', name);
  fs.mkdirSync(path.join(dir, 'temp'), { mode: 0o755 });
  const accessLog = path.join(dir, 'access.log');
  const errorLog = path.join(dir, 'error.log');
  const config = `worker_processes 2;
pid ${path.join(dir, 'nginx.pid')};
error_log ${errorLog} warn;
daemon off;
events { worker_connections 1024; }
http {
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  log_format ops '$msec $request_time $status $request_method "$request_uri" "$upstream_addr" "$upstream_status" $http_x_ops_request';
  access_log ${accessLog} ops;

${indent(CONNECTION_MAP, '  ')}

${indent(upstreamBlock(options.upstreams, options.drainMs), '  ')}

  server {
    listen 127.0.0.1:${options.port};
    location / {
${indent(PROXY_SETTINGS, '      ')}
    }
  }
}
`;
  const configFile = path.join(dir, 'nginx.conf');
  fs.writeFileSync(configFile, config);
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', configFile, '-e', errorLog], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = clock() + 10_000;
  for (;;) {
    if (exited) throw new Error(`nginx exited at start:\n${output}\n${readIfThere(errorLog)}`);
    const up = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (clock() > deadline) throw new Error(`nginx did not answer within 10 s:\n${output}\n${readIfThere(errorLog)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    config,
    log: () => parseLog(readIfThere(accessLog)),
    errors: () => readIfThere(errorLog),
    keepLogs: (target) => {
      fs.mkdirSync(target, { recursive: true });
      for (const file of [configFile, accessLog, errorLog])
        if (fs.existsSync(file)) fs.copyFileSync(file, path.join(target, `nginx-${path.basename(file)}`));
    },
    stop: async () => {
      if (!exited) {
        // QUIT: a graceful stop, as `nginx -s quit` does.
        child.kill('SIGQUIT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exit;
        clearTimeout(timer);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function readIfThere(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

const LINE = /^(\d+\.\d+) (\d+\.\d+) (\d+) (\S+) "([^"]*)" "([^"]*)" "([^"]*)" (\S+)$/;

/** `$upstream_addr` and `$upstream_status` list the tries with ", " (and " : " across internal redirects). */
const list = (field: string) => (field === '-' || field === '' ? [] : field.split(/\s*[,:]\s+/).filter((s) => s !== '-'));

export function parseLog(text: string): Logged[] {
  const entries: Logged[] = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const end = Number(m[1]) * 1000;
    entries.push({
      end,
      start: end - Number(m[2]) * 1000,
      status: Number(m[3]),
      method: m[4]!,
      uri: m[5]!,
      upstreams: list(m[6]!),
      upstreamStatuses: list(m[7]!),
      id: m[8] === '-' ? undefined : Number(m[8]),
    });
  }
  return entries;
}

/** What nginx's error log says happened to upstream connections, counted by kind. */
export interface UpstreamErrors {
  /** Connections an instance refused: nothing was sent, so nginx passes the request on (a POST too). */
  refused: number;
  /**
   * Connections that ended under a request nginx had sent (closed, reset, timed out): nginx passes
   * a GET on, but a POST fails. A stretch with none of these cannot have failed a write by chance.
   */
  lostUnderRequest: number;
  /** Requests for which nginx had no instance left to try. */
  noLiveUpstreams: number;
  other: number;
  samples: string[];
}

export function classifyErrors(text: string): UpstreamErrors {
  const out: UpstreamErrors = { refused: 0, lostUnderRequest: 0, noLiveUpstreams: 0, other: 0, samples: [] };
  for (const line of text.split('\n')) {
    if (!/\[(error|crit|alert|emerg)\]/.test(line)) continue;
    if (/connect\(\) failed \(111: Connection refused\) while connecting to upstream/.test(line)) out.refused++;
    else if (/no live upstreams/.test(line)) out.noLiveUpstreams++;
    else if (/upstream prematurely closed|Connection reset by peer|Broken pipe|upstream timed out/.test(line)) {
      out.lostUnderRequest++;
      if (out.samples.length < 5) out.samples.push(line);
    } else {
      out.other++;
      if (out.samples.length < 5) out.samples.push(line);
    }
  }
  return out;
}
