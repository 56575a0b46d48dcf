import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/**
 * The client address of a raw request, trusting X-Forwarded-For exactly as Fastify's `request.ip`
 * does with the same TRUST_PROXY: for requests answered outside Fastify (sockets, the front cache).
 */
export function clientAddressResolver(trustProxy: boolean | number | string): (req: IncomingMessage) => string {
  const trust: (address: string, hop: number) => boolean =
    trustProxy === true
      ? () => true
      : trustProxy === false
        ? () => false
        : typeof trustProxy === 'number'
          ? (_address, hop) => hop < trustProxy
          : proxyAddr.compile(trustProxy.split(',').map((s) => s.trim()));
  return (req) => proxyAddr(req, trust) ?? req.socket.remoteAddress ?? 'unknown';
}
