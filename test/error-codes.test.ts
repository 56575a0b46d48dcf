import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';
import { ERROR_MESSAGES, errorCode } from '../src/shared/error-codes';
import { MSG } from '../src/shared/messages';

describe('machine codes of error answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('gives every known message one code that names it again', () => {
    for (const [code, text] of Object.entries(ERROR_MESSAGES)) {
      expect(ERROR_MESSAGES[errorCode(text, 400)], code).toBe(text);
    }
    expect(errorCode(MSG.usernameTaken, 409)).toBe('usernameTaken');
    expect(errorCode('limit must be a whole number from 1 to 100', 400)).toBe('invalid_input');
  });

  it('answers {error, code} from the error handler, schemas, routes, the router and the HTTP parser alike', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const cases: Array<[Promise<{ json(): unknown; statusCode: number }>, number, string, string]> = [
      [
        t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'nobody_here_x', password: 'wrong-password' } }),
        401,
        MSG.invalidCredentials,
        'invalidCredentials',
      ],
      [t.app.inject({ url: '/api/servers/999999999' }), 404, MSG.serverNotFound, 'serverNotFound'],
      [t.app.inject({ url: '/api/servers/abc' }), 404, MSG.serverNotFound, 'serverNotFound'],
      [
        t.app.inject({ method: 'POST', url: `/api/servers/${server.id}/game/check`, headers: owner.headers }),
        400,
        'Connect a game address first.',
        'claim.notConnected',
      ],
      [t.app.inject({ url: '/api/user' }), 401, MSG.loginRequired, 'loginRequired'],
      [
        t.app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': 'application/json' }, payload: '{nope' }),
        400,
        MSG.invalidJson,
        'invalidJson',
      ],
      [t.app.inject({ url: '/api/servers?limit=0' }), 400, 'limit must be a whole number from 1 to 100', 'invalid_input'],
      [t.app.inject({ url: '/api/%ff' }), 400, MSG.invalidAddress, 'invalidAddress'],
    ];
    for (const [answer, status, error, code] of cases) {
      const res = await answer;
      expect(res.statusCode, error).toBe(status);
      expect(res.json(), error).toEqual({ error, code });
    }
  });
});
