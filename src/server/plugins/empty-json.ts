import type { FastifyInstance } from 'fastify';

/**
 * A JSON content type with an empty body is a request without one (`curl -X POST -H
 * 'Content-Type: application/json'`, or a client that sets the header on every call): read as
 * `{}`, so a route that takes no body answers as usual and one that needs a body names the
 * missing fields. Fastify's own parser refused it as invalid JSON. Every other body goes to that
 * parser, with its guards against `__proto__` and `constructor` keys.
 */
export function acceptEmptyJson(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) {
      done(null, {});
      return;
    }
    parse(request, String(body), done);
  });
}
