import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { MSG } from '../../shared/messages';
import { errorCode } from '../../shared/error-codes';
import { JSON_TYPE } from '../lib/cached-body';

/** What Fastify's router refuses before any route or hook runs, and how we answer it. */
const ROUTER_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_BAD_URL: { status: 400, message: MSG.invalidAddress },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: MSG.addressTooLong },
};

/** What Node's HTTP parser refuses before Fastify sees a request. */
const PARSER_ERRORS: Record<string, { status: number; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: MSG.requestTimeout },
  HPE_HEADER_OVERFLOW: { status: 431, message: MSG.headersTooLarge },
};
const PARSER_ERROR = { status: 400, message: MSG.badRequest };

/**
 * Answers for requests refused before any route runs: an address that does not decode (`%ff`), a
 * path part longer than the router takes, a malformed or oversized header. Fastify's defaults
 * answer those in a shape of their own and without the headers every other answer carries; these
 * answer `{ error }` like the rest of the API, with the security headers (set once they are known).
 */
export function earlyErrorAnswers() {
  let securityHeaders: Readonly<Record<string, string>> = {};
  return {
    setSecurityHeaders(headers: Readonly<Record<string, string>>): void {
      securityHeaders = headers;
    },

    /** Fastify's `frameworkErrors`: the router's refusals. */
    frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
      const known = error.code ? ROUTER_ERRORS[error.code] : undefined;
      if (!known) request.log.error({ err: error }, 'request refused by the router');
      const { status, message } = known ?? { status: 500, message: MSG.internal };
      void reply
        .headers(securityHeaders)
        .header('x-request-id', request.id)
        .code(status)
        .type(JSON_TYPE)
        .send(JSON.stringify({ error: message, code: errorCode(message, status) }));
    },

    /** Fastify's `clientErrorHandler`: the HTTP parser's refusals, written to the socket as Node would. */
    clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
      // A reset connection has nobody to answer.
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      if (socket.writable) {
        const { status, message } = (error.code ? PARSER_ERRORS[error.code] : undefined) ?? PARSER_ERROR;
        const body = JSON.stringify({ error: message, code: errorCode(message, status) });
        const lines = [
          `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}`,
          ...Object.entries(securityHeaders).map(([name, value]) => `${name}: ${value}`),
          `content-type: ${JSON_TYPE}`,
          `content-length: ${Buffer.byteLength(body)}`,
          'connection: close',
        ];
        socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
      }
      socket.destroy(error);
    },
  };
}
