import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** Claims the test provider returns for an account id; `sub` is always the id. */
export type ClaimsFor = (accountId: string) => Record<string, unknown>;

/** A real oidc-provider on 127.0.0.1 with one confidential client. */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Replaces the claims returned from now on. */
  setClaims(claims: ClaimsFor): void;
  /** Rewrites the token endpoint's JSON answers from now on (e.g. drops access_token); null: as issued. */
  setTokenResponse(transform: ((body: Record<string, unknown>) => Record<string, unknown>) | null): void;
  /**
   * The provider's clock runs `seconds` off (negative: behind) while it answers token requests, and its ID
   * tokens live `idTokenTtl` seconds: together they say how long before our clock's now an ID token expires.
   */
  setClockSkew(seconds: number, idTokenTtl?: number): void;
  /**
   * Plays the browser at the provider: follows `authorizationUrl` through the development login (as
   * `accountId`, any password) and consent, and returns the URL the provider redirects back to.
   */
  signIn(authorizationUrl: string, accountId: string): Promise<URL>;
  /** Like signIn, but presses "cancel" on the login page: the provider answers with error=access_denied. */
  abort(authorizationUrl: string): Promise<URL>;
  close(): Promise<void>;
}

const defaultClaims: ClaimsFor = (id) => ({ email: `${id}@example.test`, email_verified: true, given_name: 'User', family_name: id, name: `User ${id}` });

/** How the provider's key set (`/jwks`) misbehaves, for signature-verification tests. */
export interface KeySetOptions {
  /** Published instead of the signing keys. */
  publishedJwks?: Record<string, unknown>;
  /** The key-set request never gets an answer. */
  hangJwks?: boolean;
}

/** Starts oidc-provider 9 (STACK.md's configuration) with the given redirect URIs registered. */
export async function startOidcProvider(redirectUris: string[], keySet: KeySetOptions = {}): Promise<TestOidcProvider> {
  let claimsFor = defaultClaims;
  let tokenResponse: ((body: Record<string, unknown>) => Record<string, unknown>) | null = null;
  let idTokenTtl = 3600;
  let skewSeconds = 0;
  const server = createServer();
  const port = await listenOn(server);
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'tessera-test';
  const clientSecret = 'tessera-test-secret';
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, response_types: ['code'], grant_types: ['authorization_code', 'refresh_token'] }],
    // Refresh tokens on every sign-in, so Tessera's auth_data has one to keep.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ ...claimsFor(id), sub: id }) }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name'] },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['test-cookie-key'] },
    // Fixed lifetimes, so the provider does not print a notice for each default it falls back to.
    ttl: { AccessToken: 3600, AuthorizationCode: 60, Grant: 3600, IdToken: () => idTokenTtl, Interaction: 3600, RefreshToken: 86400, Session: 3600 },
  });
  // A post-middleware (oidc-provider is a Koa app): the token answer is still an object here.
  provider.use(async (ctx, next) => {
    const realNow = Date.now;
    // Only while the token request is served: this process is also the relying party, checking with the true time.
    if (skewSeconds && ctx.path === '/token') Date.now = () => realNow() + skewSeconds * 1000;
    try {
      await next();
    } finally {
      Date.now = realNow;
    }
    if (tokenResponse && ctx.oidc?.route === 'token' && ctx.body && typeof ctx.body === 'object') ctx.body = tokenResponse(ctx.body as Record<string, unknown>);
  });
  const handle = provider.callback();
  server.on('request', (request, response) => {
    if (request.url === '/jwks' && keySet.hangJwks) return;
    if (request.url === '/jwks' && keySet.publishedJwks) {
      response.writeHead(200, { 'content-type': 'application/jwk-set+json' }).end(JSON.stringify(keySet.publishedJwks));
      return;
    }
    handle(request, response);
  });

  return {
    issuer,
    clientId,
    clientSecret,
    setClaims: (claims) => {
      claimsFor = claims;
    },
    setTokenResponse: (transform) => {
      tokenResponse = transform;
    },
    setClockSkew: (seconds, ttl = 3600) => {
      skewSeconds = seconds;
      idTokenTtl = ttl;
    },
    signIn: (authorizationUrl, accountId) => driveInteractions(authorizationUrl, issuer, { login: accountId, password: 'any-password' }),
    abort: (authorizationUrl) => driveInteractions(authorizationUrl, issuer, 'abort'),
    close: () => closeServer(server),
  };
}

/**
 * Follows redirects at the provider with a cookie jar, submitting the login form (or following its abort
 * link) and the consent form, until a redirect leaves the provider.
 */
async function driveInteractions(start: string, issuer: string, login: Record<string, string> | 'abort'): Promise<URL> {
  const jar = new Map<string, string>();
  let url = new URL(start);
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 12; step++) {
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      body,
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const separator = pair!.indexOf('=');
      jar.set(pair!.slice(0, separator), pair!.slice(separator + 1));
    }
    body = undefined;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      if (!url.href.startsWith(issuer)) return url;
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) throw new Error(`provider answered ${response.status}: ${html.slice(0, 300)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no interaction form at ${url.href}`);
    if (prompt === 'login' && login === 'abort') {
      const abort = /href="([^"]*\/abort)"/.exec(html)?.[1];
      if (!abort) throw new Error('no abort link on the login page');
      url = new URL(abort, url);
      continue;
    }
    url = new URL(action, url);
    body = new URLSearchParams(prompt === 'login' ? { prompt, ...(login as Record<string, string>) } : { prompt });
  }
  throw new Error('the provider did not redirect back');
}

/** A tiny server answering the discovery request with `transform(oidc-provider's metadata)`. */
export async function startMetadataServer(issuer: string, transform: (metadata: Record<string, unknown>, ownUrl: string) => Record<string, unknown>): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer();
  const url = `http://127.0.0.1:${await listenOn(server)}`;
  server.on('request', async (request, response) => {
    if (request.url !== '/.well-known/openid-configuration') {
      response.writeHead(404).end();
      return;
    }
    const metadata = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(transform(metadata, url)));
  });
  return { url, close: () => closeServer(server) };
}

function listenOn(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
