import * as oauth from 'oauth4webapi';

/** Where Discord is and who this site is to it. */
export interface DiscordSettings {
  clientId: string;
  clientSecret: string;
  /** Discord's base URL (`https://discord.com`); tests run a local provider that speaks its paths. */
  apiUrl: string;
  /** This site's callback route, registered as the redirect URL of the Discord application. */
  redirectUri: string;
  /** Longest wait for each request to Discord. */
  timeoutMs: number;
}

/** What this site keeps of a Discord account. */
export interface DiscordProfile {
  id: string;
  /** The name to show and to offer as a username: the display name, else the username. */
  name: string;
  username: string;
  email: string | null;
  /** Discord checked the address (only then may it count as confirmed here). */
  verified: boolean;
}

/**
 * Why a sign-in with Discord stopped: Discord refused (a denied, reused or forged code, a bad
 * answer), or could not be reached in time.
 */
export class DiscordError extends Error {
  constructor(
    readonly kind: 'failed' | 'unreachable',
    message: string,
  ) {
    super(message);
    this.name = 'DiscordError';
  }
}

const SCOPES = 'identify email';

/**
 * The OAuth 2.0 authorization-code flow with PKCE against Discord's own endpoints, through
 * `oauth4webapi` (no hand-written token requests): the authorization URL, the code exchange and
 * `/users/@me`, each request bounded by a timeout.
 */
export function discordOAuth(settings: DiscordSettings) {
  const base = settings.apiUrl.replace(/\/+$/, '');
  const as: oauth.AuthorizationServer = {
    issuer: base,
    authorization_endpoint: `${base}/oauth2/authorize`,
    token_endpoint: `${base}/api/oauth2/token`,
  };
  const client: oauth.Client = { client_id: settings.clientId };
  const auth = oauth.ClientSecretPost(settings.clientSecret);
  // Only a loopback test provider may be plain http (the config refuses any other http URL).
  const insecure = base.startsWith('http://') ? { [oauth.allowInsecureRequests]: true } : {};
  const options = () => ({ ...insecure, signal: AbortSignal.timeout(settings.timeoutMs) });

  /** A failure of the network (refused, reset, timed out) or anything Discord said no to. */
  const classify = (error: unknown): DiscordError => {
    if (error instanceof DiscordError) return error;
    const name = (error as { name?: string } | null)?.name;
    const cause = (error as { cause?: { code?: string } } | null)?.cause;
    if (
      name === 'TimeoutError' ||
      name === 'AbortError' ||
      (error instanceof TypeError && /fetch failed/.test(error.message)) ||
      cause?.code
    ) {
      return new DiscordError('unreachable', 'Discord did not answer in time');
    }
    return new DiscordError('failed', error instanceof Error ? error.message : 'Discord refused the sign-in');
  };

  return {
    /** The URL that sends the browser to Discord's consent screen, with `state` and the PKCE challenge. */
    async authorizationUrl(state: string, codeVerifier: string): Promise<string> {
      const url = new URL(as.authorization_endpoint!);
      url.searchParams.set('client_id', settings.clientId);
      url.searchParams.set('redirect_uri', settings.redirectUri);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', SCOPES);
      url.searchParams.set('state', state);
      url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
      url.searchParams.set('code_challenge_method', 'S256');
      url.searchParams.set('prompt', 'consent');
      return url.href;
    },

    /**
     * Checks the callback's parameters against the expected `state` (a Discord error, such as the
     * person pressing Cancel, throws `failed` with its code), trades the code for an access token
     * and reads the account.
     */
    async profile(callback: URLSearchParams, expectedState: string, codeVerifier: string): Promise<DiscordProfile> {
      let params: URLSearchParams;
      try {
        params = oauth.validateAuthResponse(as, client, callback, expectedState);
      } catch (error) {
        const code = (error as { error?: string }).error;
        throw new DiscordError('failed', code === 'access_denied' ? 'access_denied' : (code ?? 'invalid authorization response'));
      }
      try {
        const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, settings.redirectUri, codeVerifier, options());
        const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
        const me = await oauth.protectedResourceRequest(
          tokens.access_token,
          'GET',
          new URL(`${base}/api/users/@me`),
          undefined,
          undefined,
          options(),
        );
        if (!me.ok) throw new DiscordError('failed', `Discord answered ${me.status} for the account`);
        const body = (await me.json()) as Record<string, unknown>;
        const id = typeof body['id'] === 'string' && /^\d{1,20}$/.test(body['id']) ? body['id'] : undefined;
        const username = typeof body['username'] === 'string' ? body['username'] : undefined;
        if (!id || !username) throw new DiscordError('failed', 'Discord answered an account without an id');
        const globalName = typeof body['global_name'] === 'string' && body['global_name'].trim() ? body['global_name'] : undefined;
        const email = typeof body['email'] === 'string' && body['email'].includes('@') ? body['email'] : null;
        return { id, username, name: globalName ?? username, email, verified: email !== null && body['verified'] === true };
      } catch (error) {
        throw classify(error);
      }
    },
  };
}

export type DiscordOAuth = ReturnType<typeof discordOAuth>;

/** Discord's epoch: a snowflake id's top bits count milliseconds from here. */
const DISCORD_EPOCH = 1_420_070_400_000;

/** When Discord created the account with this id (a snowflake). */
export function discordCreatedAt(id: string): Date {
  return new Date(Number(BigInt(id) >> 22n) + DISCORD_EPOCH);
}
