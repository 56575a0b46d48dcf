import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t.close());

/** Sends raw bytes and reads the whole answer until the server closes the connection. */
function raw(request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.end(request);
  });
}

const expectUsualHeaders = (headers: Record<string, string | string[] | number | undefined>) => {
  expect(headers['content-type']).toBe('application/json; charset=utf-8');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(String(headers['content-security-policy'])).toContain("default-src 'self'");
};

describe('requests refused before any route runs', () => {
  it('answers an address that does not decode, or a path part past the router’s limit, like any other error', async () => {
    for (const url of ['/api/servers/%ff', '/api/servers/%', '/api/%ff', '/api/servers/1/reviews%ZZ']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ error: 'This address is not valid.' });
      expectUsualHeaders(res.headers);
      expect(res.headers['x-request-id']).toBeTruthy();
    }
    const long = await t.app.inject({ url: `/api/servers/${'1'.repeat(101)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toMatchObject({ error: 'This address is too long.' });
    expectUsualHeaders(long.headers);
  });

  it('answers malformed and oversized headers in the API’s shape, with its security headers, and closes', async () => {
    const cases: Array<[string, string, number]> = [
      ['a NUL byte in a header', 'GET /api/health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\u0000b\r\n\r\n', 400],
      [
        'Transfer-Encoding with Content-Length',
        'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        400,
      ],
      ['a request line that is not HTTP', 'HELLO\r\n\r\n', 400],
      ['headers over the limit', `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ];
    for (const [name, request, status] of cases) {
      const res = await raw(request);
      expect(res.status, name).toBe(status);
      expect(JSON.parse(res.body), name).toMatchObject({ error: expect.any(String) });
      expectUsualHeaders(res.headers);
      expect(res.headers['connection'], name).toBe('close');
    }
    // The server still answers afterwards.
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
  });
});
