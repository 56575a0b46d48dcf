import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Discord account as `/api/users/@me` answers it. */
export interface FakeDiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
  email?: string | null;
  verified?: boolean;
}

/** A snowflake id for an account Discord created `ageMs` ago (its top bits are ms since 2015-01-01). */
export function snowflake(ageMs: number, now = Date.now()): string {
  const ms = BigInt(now - ageMs - 1_420_070_400_000);
  return String((ms << 22n) | BigInt(crypto.randomInt(1 << 22)));
}

/** How the provider behaves at its next authorization or token request. */
export type FakeDiscordMode = 'normal' | 'deny' | 'token-down' | 'token-slow' | 'me-error';

/**
 * A local OAuth 2.0 provider that speaks Discord's paths over real HTTP: `/oauth2/authorize`
 * approves at once (as the signed-in test user) and redirects back with a code, or with
 * `error=access_denied`; `/api/oauth2/token` checks the client, the redirect URI, the code (once)
 * and the PKCE verifier; `/api/users/@me` answers the user of the access token.
 */
export async function startFakeDiscord(options: { clientId: string; clientSecret: string; port?: number }) {
  let user: FakeDiscordUser | undefined;
  let mode: FakeDiscordMode = 'normal';
  const codes = new Map<string, { user: FakeDiscordUser; challenge: string; redirectUri: string; used: boolean }>();
  const tokens = new Map<string, FakeDiscordUser>();
  const requests: string[] = [];
  const held = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(`${req.method} ${url.pathname}`);
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

    if (req.method === 'GET' && url.pathname === '/oauth2/authorize') {
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      const state = url.searchParams.get('state') ?? '';
      const back = new URL(redirectUri);
      back.searchParams.set('state', state);
      if (mode === 'deny' || !user || url.searchParams.get('client_id') !== options.clientId) {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'The resource owner or authorization server denied the request');
      } else {
        const code = crypto.randomBytes(15).toString('hex');
        codes.set(code, { user, challenge: url.searchParams.get('code_challenge') ?? '', redirectUri, used: false });
        back.searchParams.set('code', code);
      }
      return res.writeHead(302, { location: back.href }).end();
    }

    if (req.method === 'POST' && url.pathname === '/api/oauth2/token') {
      if (mode === 'token-down') return req.socket.destroy();
      if (mode === 'token-slow') {
        held.add(res);
        return;
      }
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        if (form.get('client_id') !== options.clientId || form.get('client_secret') !== options.clientSecret) {
          return json(401, { error: 'invalid_client' });
        }
        const grant = codes.get(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
        if (!grant || grant.used || grant.redirectUri !== form.get('redirect_uri') || grant.challenge !== challenge) {
          if (grant) grant.used = true;
          return json(400, { error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
        }
        grant.used = true;
        const accessToken = crypto.randomBytes(15).toString('hex');
        tokens.set(accessToken, grant.user);
        return json(200, {
          access_token: accessToken,
          token_type: 'Bearer',
          expires_in: 604800,
          refresh_token: 'r',
          scope: 'identify email',
        });
      });
      return;
    }

    if (req.method === 'GET' && url.pathname === '/api/users/@me') {
      if (mode === 'me-error') return json(500, { message: 'Internal Server Error' });
      const found = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
      if (!found) return json(401, { message: '401: Unauthorized', code: 0 });
      return json(200, { avatar: null, discriminator: '0', global_name: null, verified: false, email: null, ...found });
    }
    json(404, { message: '404: Not Found', code: 0 });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    /** The Discord account that approves the next authorization. */
    signInAs(next: FakeDiscordUser | undefined) {
      user = next;
    },
    behave(next: FakeDiscordMode) {
      mode = next;
    },
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
