import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { checkTarget, resolvePublicAddress, type TargetPolicy } from './address-guard';

/**
 * The one way the server makes HTTP requests of its own (game queries, web push). Each
 * connection goes to an address the guard checked, resolved once and pinned (no second DNS
 * answer), and reads a bounded number of bytes. `guardedFetch` adds what an agent cannot: no
 * redirect is ever followed, one deadline covers the whole exchange, the body is capped.
 */

/** Why an outgoing request was stopped here (the address guard itself throws `AddressRefused`). */
export class OutboundRefused extends Error {
  constructor(
    readonly reason: 'redirect' | 'too-large' | 'timeout' | 'bad-url',
    message: string,
  ) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

type ConnectOptions = http.ClientRequestArgs & net.TcpNetConnectOpts;
type Created = (err: Error | null, socket: Duplex) => void;

const DEFAULT_MAX_BYTES = 1024 * 1024;

/**
 * Checks the target of a new connection and opens it at the checked IP. An IP literal is
 * checked at once (Node skips `lookup` for literals); a name goes through a `lookup` that asks
 * the guard, so the address resolved for the check is the one connected to.
 */
function connectGuarded(
  policy: TargetPolicy,
  limits: Required<GuardedAgentOptions>,
  options: ConnectOptions,
  created: Created | undefined,
  open: (options: ConnectOptions) => Duplex,
): Duplex | undefined {
  const host = String(options.host ?? 'localhost').replace(/^\[(.*)\]$/, '$1');
  const port = Number(options.port);
  let socket: Duplex;
  if (net.isIP(host) !== 0) {
    let ip: string;
    try {
      ip = checkTarget(host, port, policy);
    } catch (error) {
      if (!created) throw error;
      // The agent hands this error to the request, which emits it: nothing was opened.
      created(error as Error, undefined as unknown as Duplex);
      return undefined;
    }
    socket = open({ ...options, host: ip });
  } else {
    const lookup: net.LookupFunction = (hostname, lookupOptions, callback) => {
      resolvePublicAddress(hostname, port, policy).then(
        (ip) => {
          const family = net.isIP(ip);
          // With autoSelectFamily Node asks for a list: it gets the checked IP alone.
          if (lookupOptions.all)
            (callback as unknown as (e: null, list: Array<{ address: string; family: number }>) => void)(null, [{ address: ip, family }]);
          else callback(null, ip, family);
        },
        (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
      );
    };
    socket = open({ ...options, lookup });
  }
  let read = 0;
  // Counted beside the HTTP parser: headers and body of everything this connection receives.
  socket.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > limits.maxResponseBytes) socket.destroy(new OutboundRefused('too-large', `response over ${limits.maxResponseBytes} bytes`));
  });
  // A server that answers a byte at a time never trips an idle timeout: this one counts from the start.
  const deadline = setTimeout(
    () => socket.destroy(new OutboundRefused('timeout', `connection open over ${limits.maxConnectionMs} ms`)),
    limits.maxConnectionMs,
  );
  deadline.unref();
  socket.on('close', () => clearTimeout(deadline));
  return socket;
}

export interface GuardedAgentOptions {
  /** Bytes one connection may receive, headers included (default 1 MiB). */
  maxResponseBytes?: number;
  /** How long one connection may stay open, whatever it does (default 30 s; agents here do not keep connections alive). */
  maxConnectionMs?: number;
}

const limitsOf = (options: GuardedAgentOptions): Required<GuardedAgentOptions> => ({
  maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_BYTES,
  maxConnectionMs: options.maxConnectionMs ?? 30_000,
});

/** An http.Agent whose connections only reach checked, pinned addresses. */
export class GuardedHttpAgent extends http.Agent {
  readonly policy: TargetPolicy;
  private readonly limits: Required<GuardedAgentOptions>;

  constructor(policy: TargetPolicy = {}, options: Omit<http.AgentOptions, 'keepAlive'> & GuardedAgentOptions = {}) {
    const { maxResponseBytes, maxConnectionMs, ...agentOptions } = options;
    super(agentOptions);
    this.policy = policy;
    this.limits = limitsOf({ maxResponseBytes, maxConnectionMs });
  }

  override createConnection(options: http.ClientRequestArgs, created?: Created): Duplex | undefined {
    return connectGuarded(this.policy, this.limits, options as ConnectOptions, created, (o) => net.createConnection(o));
  }
}

/** An https.Agent whose connections only reach checked, pinned addresses; TLS checks the name as usual. */
export class GuardedHttpsAgent extends https.Agent {
  readonly policy: TargetPolicy;
  private readonly limits: Required<GuardedAgentOptions>;

  constructor(policy: TargetPolicy = {}, options: Omit<https.AgentOptions, 'keepAlive'> & GuardedAgentOptions = {}) {
    const { maxResponseBytes, maxConnectionMs, ...agentOptions } = options;
    super(agentOptions);
    this.policy = policy;
    this.limits = limitsOf({ maxResponseBytes, maxConnectionMs });
  }

  override createConnection(options: https.RequestOptions, created?: Created): Duplex | undefined {
    return connectGuarded(this.policy, this.limits, options as ConnectOptions, created, (o) => {
      const socket = super.createConnection(o);
      if (!socket) throw new Error('https.Agent opened no connection');
      return socket;
    });
  }
}

export interface GuardedRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** One deadline for connecting, sending and reading the whole answer. */
  timeoutMs: number;
  /** Largest body accepted; a bigger answer aborts the request. */
  maxBytes: number;
  policy?: TargetPolicy;
  /** Extra TLS options (tests trust their local certificate with `ca`). */
  tls?: Pick<https.AgentOptions, 'ca'>;
}

export interface GuardedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One HTTP(S) request through the guard. A 3xx answer is an error, never followed: a redirect
 * is how a public host would point the server at an internal one.
 */
export function guardedFetch(url: string, request: GuardedRequest): Promise<GuardedResponse> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.reject(new OutboundRefused('bad-url', 'not a URL'));
  }
  if ((target.protocol !== 'http:' && target.protocol !== 'https:') || target.username || target.password) {
    return Promise.reject(new OutboundRefused('bad-url', 'only plain http and https URLs'));
  }
  const secure = target.protocol === 'https:';
  // Headers and framing on top of the body: the connection cap backs up the body count below.
  const agentOptions = { maxResponseBytes: request.maxBytes + 64 * 1024, maxConnectionMs: request.timeoutMs + 1000 };
  const agent = secure
    ? new GuardedHttpsAgent(request.policy, { ...agentOptions, ...request.tls })
    : new GuardedHttpAgent(request.policy, agentOptions);
  return new Promise<GuardedResponse>((resolve, reject) => {
    const req = (secure ? https : http).request(target, { method: request.method ?? 'GET', headers: request.headers, agent }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        req.destroy(new OutboundRefused('redirect', `refused to follow a ${status} redirect`));
        return;
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > request.maxBytes) {
        req.destroy(new OutboundRefused('too-large', `response over ${request.maxBytes} bytes`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > request.maxBytes) req.destroy(new OutboundRefused('too-large', `response over ${request.maxBytes} bytes`));
        else chunks.push(chunk);
      });
      res.on('error', reject);
      res.on('end', () => resolve({ status, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    const deadline = setTimeout(
      () => req.destroy(new OutboundRefused('timeout', `no complete answer within ${request.timeoutMs} ms`)),
      request.timeoutMs,
    );
    req.on('error', reject);
    req.on('close', () => {
      clearTimeout(deadline);
      agent.destroy();
    });
    req.end(request.body);
  });
}
