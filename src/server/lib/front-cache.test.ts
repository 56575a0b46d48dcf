import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { FrontCache, OFFERED_URL_MAX, type FrontRoute } from './front-cache';
import { cachedBody } from './cached-body';

const body = cachedBody('{"count":1}');
const held: FrontRoute = () => ({ body });

function ask(front: FrontCache, url: string, { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> } = {}) {
  const sent: Array<{ status: number; headers: Record<string, string>; body: unknown }> = [];
  const response = {
    // The front cache writes its headers as the flat list `writeHead` also takes.
    writeHead(status: number, written: string[]) {
      const headers: Record<string, string> = {};
      for (let i = 0; i < written.length; i += 2) {
        expect(headers, `${written[i]} twice`).not.toHaveProperty(written[i]!);
        headers[written[i]!] = written[i + 1]!;
      }
      sent.push({ status, headers, body: undefined });
      return this;
    },
    end(data?: unknown) {
      sent[sent.length - 1]!.body = data;
      return this;
    },
  };
  const answered = front.handle({ method, url, headers } as unknown as IncomingMessage, response as unknown as ServerResponse);
  return { answered, sent };
}

function ready(): FrontCache {
  const front = new FrontCache();
  front.setBaseHeaders({ 'x-content-type-options': 'nosniff' });
  return front;
}

describe('front cache', () => {
  it('answers a held GET with the base headers, a length and the body', () => {
    const front = ready();
    front.route('/api/player-count', held);
    const { answered, sent } = ask(front, '/api/player-count');
    expect(answered).toBe(true);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.status).toBe(200);
    expect(sent[0]!.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      etag: body.etag,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(body.byteLength),
    });
    expect(sent[0]!.body).toBe(body.raw);
  });

  it('leaves to the router: other methods, a token, an unknown URL, and everything before the base headers or while paused', () => {
    const unready = new FrontCache();
    unready.route('/a', held);
    expect(ask(unready, '/a').answered).toBe(false);

    const front = ready();
    front.route('/a', held);
    for (const method of ['HEAD', 'POST', 'OPTIONS', 'DELETE']) expect(ask(front, '/a', { method }).answered, method).toBe(false);
    expect(ask(front, '/a', { headers: { authorization: 'Bearer x' } }).answered).toBe(false);
    expect(ask(front, '/a/').answered).toBe(false);
    expect(ask(front, '/a?x=1').answered).toBe(false);

    let paused = true;
    front.pauseWhile(() => paused);
    expect(ask(front, '/a').answered).toBe(false);
    paused = false;
    expect(ask(front, '/a').answered).toBe(true);
    expect(front.hits).toBe(1);
  });

  it('forgets an offered URL once its route has nothing, and survives a route that throws', () => {
    const front = ready();
    let current = true;
    front.offer('/list', () => (current ? { body } : undefined));
    expect(ask(front, '/list').answered).toBe(true);
    current = false;
    expect(ask(front, '/list').answered).toBe(false);
    current = true;
    // Forgotten: the route has to offer it again.
    expect(ask(front, '/list').answered).toBe(false);

    front.offer('/broken', () => {
      throw new Error('boom');
    });
    const { answered, sent } = ask(front, '/broken');
    expect(answered).toBe(false);
    expect(sent).toHaveLength(0);
  });

  it('keeps no long URL and at most 2,000 offered ones, the one asked for least lately going first', () => {
    const front = ready();
    front.offer(`/x?${'p'.repeat(OFFERED_URL_MAX)}`, held);
    expect(ask(front, `/x?${'p'.repeat(OFFERED_URL_MAX)}`).answered).toBe(false);
    for (let i = 0; i < 2001; i++) front.offer(`/page/${i}`, held);
    expect(ask(front, '/page/0').answered).toBe(false);
    expect(ask(front, '/page/1').answered).toBe(true);
    expect(ask(front, '/page/2000').answered).toBe(true);
    // /page/1 was just asked for: a stream of new URLs pushes out /page/2 and the rest first.
    for (let i = 2001; i < 3000; i++) front.offer(`/page/${i}`, held);
    expect(ask(front, '/page/1').answered).toBe(true);
    expect(ask(front, '/page/2').answered).toBe(false);
  });

  it('sends each request its own id, and the headers the route gives now for the same body', () => {
    const front = ready();
    let total = '5';
    front.route('/list', () => ({ body, headers: { 'x-total-count': total } }));
    const first = ask(front, '/list').sent[0]!.headers;
    const second = ask(front, '/list').sent[0]!.headers;
    expect(first['x-request-id']).not.toBe(second['x-request-id']);
    expect(second['x-total-count']).toBe('5');
    total = '6';
    expect(ask(front, '/list').sent[0]!.headers['x-total-count']).toBe('6');
    expect(ask(front, '/list', { headers: { 'if-none-match': body.etag } }).sent[0]!.headers['x-total-count']).toBe('6');
  });

  it('makes a body’s header list once while the route hands the same headers object', () => {
    const front = ready();
    let reads = 0;
    const headers = {
      get 'x-total-count'() {
        reads++;
        return '7';
      },
    };
    front.route('/list', () => ({ body, headers }));
    for (let i = 0; i < 5; i++) expect(ask(front, '/list').sent[0]!.headers['x-total-count']).toBe('7');
    expect(reads).toBe(1);
  });

  it('answers 304 to a matching ETag, with no body', () => {
    const front = ready();
    front.route('/a', held);
    const { sent } = ask(front, '/a', { headers: { 'if-none-match': body.etag } });
    expect(sent[0]!.status).toBe(304);
    expect(sent[0]!.body).toBeUndefined();
    expect(sent[0]!.headers.etag).toBe(body.etag);
  });
});
