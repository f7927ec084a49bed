// What the OAuth end-to-end tests of both SDK revisions share: the environment run.sh sets, an
// in-memory OAuthClientProvider (the interface is the same in the 1.x and 2.x SDKs), the headless
// user agent that walks the authorization server's redirects, a recording fetch, and JWT decoding.
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';

export const env = {
  mcpUrl: process.env.ELICITGEN_HTTP_URL,  // http://127.0.0.1:PORT/mcp, also the resource
  issuer: process.env.OAUTH_ISSUER,  // http://127.0.0.1:PORT
  otherResource: process.env.OTHER_RESOURCE,  // a resource the AS knows that is not the MCP server
  serviceSecret: process.env.SERVICE_CLIENT_SECRET,  // of the confidential client elicitgen-e2e-service
};
for (const [k, v] of Object.entries(env)) assert.ok(v, `run.sh sets ${k}`);

export const ACCOUNT = 'octocat';  // the account authorization-server.mjs logs in
export const SCOPE = 'mcp';  // the scope the MCP server requires (--scope) and the AS grants
// Where the authorization server sends the code. Nothing listens there: the user agent stops at the
// redirect and hands the URL to the test, as a native app's loopback listener would.
export const REDIRECT_URI = 'http://127.0.0.1:1/callback';

// A minimal cookie jar for one user agent: cookies by name and path, sent when the path matches,
// removed when the server expires them.
export class CookieJar {
  #cookies = new Map();  // `${path} ${name}` -> { name, value, path }

  store(response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = '/';
      let expired = value === '';
      for (const a of attrs) {
        const [k, v = ''] = a.split('=');
        if (k.toLowerCase() === 'path') path = v || '/';
        if (k.toLowerCase() === 'expires' && Date.parse(v) <= Date.now()) expired = true;
        if (k.toLowerCase() === 'max-age' && Number(v) <= 0) expired = true;
      }
      const key = `${path} ${name}`;
      if (expired) this.#cookies.delete(key);
      else this.#cookies.set(key, { name, value, path });
    }
  }

  header(url) {
    const { pathname } = new URL(url);
    return [...this.#cookies.values()]
      .filter((c) => pathname === c.path || pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }
}

// The browser of a person who is already known to the authorization server: follows its redirects
// (login and consent are answered by its headless interaction route) until one points at
// REDIRECT_URI, and returns that URL's query (code, state, iss). At most 12 hops, each within 10 s.
export async function userAgent(authorizationUrl) {
  const jar = new CookieJar();
  const hops = [];
  let url = new URL(authorizationUrl);
  for (let i = 0; i < 12; ++i) {
    const cookie = jar.header(url);
    const response = await fetch(url, {
      redirect: 'manual',
      headers: cookie ? { cookie } : {},
      signal: AbortSignal.timeout(10000),
    });
    jar.store(response);
    hops.push({ url: url.href, status: response.status });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      throw new Error(`the authorization server stopped at ${url.href} (${response.status}): ${await response.text()}`);
    }
    await response.body?.cancel();
    url = new URL(location, url);
    if (url.href.startsWith(REDIRECT_URI)) return { params: url.searchParams, hops };
  }
  throw new Error(`no redirect to ${REDIRECT_URI} within 12 hops: ${JSON.stringify(hops)}`);
}

// An OAuthClientProvider kept in memory: dynamic registration, PKCE, and a redirect that the
// headless user agent follows at once. `redirects` holds what each authorization ended with.
export class InMemoryOAuthProvider {
  clientInfo;
  savedTokens;
  verifier;
  redirects = [];

  get redirectUrl() {
    return REDIRECT_URI;
  }

  get clientMetadata() {
    return {
      client_name: 'elicitgen OAuth e2e',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.clientInfo;
  }

  saveClientInformation(info) {
    this.clientInfo = info;
  }

  tokens() {
    return this.savedTokens;
  }

  saveTokens(tokens) {
    this.savedTokens = tokens;
  }

  saveCodeVerifier(verifier) {
    this.verifier = verifier;
  }

  codeVerifier() {
    return this.verifier;
  }

  // The discovery results kept between the redirect and the callback: the 2.x SDK checks with them
  // that the code is exchanged at the authorization server it was asked of (SEP-2352).
  saveDiscoveryState(state) {
    this.discovery = state;
  }

  discoveryState() {
    return this.discovery;
  }

  async redirectToAuthorization(authorizationUrl) {
    const url = new URL(authorizationUrl);
    const { params, hops } = await userAgent(url);
    this.redirects.push({ authorizationUrl: url, params, hops });
  }
}

// A fetch that records every request (method, URL, status, request headers and body) for the
// wire checks; used for the MCP server and the authorization server alike.
export function recordingFetch(log) {
  return async (input, init) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const response = await fetch(input, init);
    log.push({
      method: init?.method ?? 'GET',
      url,
      status: response.status,
      headers: new Headers(init?.headers),
      body: init?.body,
      wwwAuthenticate: response.headers.get('www-authenticate'),
    });
    return response;
  };
}

const b64json = (part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

// The header and claims of a JWT (the signature is the MCP server's business).
export function decodeJwt(token) {
  const parts = token.split('.');
  assert.equal(parts.length, 3, 'a JWS compact serialization');
  return { header: b64json(parts[0]), claims: b64json(parts[1]) };
}

// The RFC 9068 access token the MCP server accepts: at+jwt, from our issuer, for our resource.
export function assertAccessTokenForResource(token, { sub, clientId }) {
  const { header, claims } = decodeJwt(token);
  assert.equal(header.typ, 'at+jwt');
  assert.equal(header.alg, 'ES256');
  assert.equal(claims.iss, env.issuer);
  assert.equal(claims.aud, env.mcpUrl);
  assert.equal(claims.sub, sub);
  assert.equal(claims.client_id, clientId);
  assert.ok(claims.scope.split(' ').includes(SCOPE), `scope ${claims.scope}`);
  assert.ok(claims.exp > Date.now() / 1000, 'not expired');
  return { header, claims };
}

// A token from a pre-registered confidential client (client_credentials) for `resource`, with
// `scope` (none: no scope parameter, and the token has no scope).
export async function serviceToken(resource, { scope = SCOPE, client = 'elicitgen-e2e-service' } = {}) {
  const response = await fetch(`${env.issuer}/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client}:${env.serviceSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource, ...(scope ? { scope } : {}) }),
    signal: AbortSignal.timeout(10000),
  });
  assert.equal(response.status, 200, await response.clone().text());
  const { access_token: token } = await response.json();
  return token;
}

// The parameters of a WWW-Authenticate Bearer challenge (quoted strings, RFC 9110 section 5.6.4,
// as our server sends them).
export function bearerChallenge(header) {
  assert.match(header ?? '', /^Bearer\b/);
  return Object.fromEntries(
    [...header.matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2].replace(/\\(.)/g, '$1')]),
  );
}

// What an unauthenticated, or wrongly authenticated, POST to the MCP endpoint gets.
export async function rawPost(body, authorization) {
  const response = await fetch(env.mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10000),
  });
  await response.body?.cancel();
  return { status: response.status, challenge: bearerChallenge(response.headers.get('www-authenticate')) };
}

// `token`'s header and claims signed again, by a key the authorization server never had (its kid
// kept), or not at all (`alg: none`, no signature).
export function forged(token, { unsigned = false } = {}) {
  const { header, claims } = decodeJwt(token);
  const part = (v) => Buffer.from(JSON.stringify(v)).toString('base64url');
  if (unsigned) return `${part({ ...header, alg: 'none' })}.${part(claims)}.`;
  const input = `${part(header)}.${part(claims)}`;
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

// Tokens the MCP server must refuse, each sent raw with `body` (the revision's first request):
// 401 invalid_token, or 403 insufficient_scope naming the scope. Returns the error descriptions.
export async function checkRefusedTokens(body) {
  const descriptions = {};
  const refused = async (what, token, status = 401, error = 'invalid_token') => {
    const r = await rawPost(body, `Bearer ${token}`);
    assert.equal(r.status, status, what);
    assert.equal(r.challenge.error, error, what);
    assert.ok(r.challenge.error_description, what);
    descriptions[what] = r.challenge.error_description;
    return r;
  };
  const good = await serviceToken(env.mcpUrl);

  const other = await serviceToken(env.otherResource);
  assert.equal(decodeJwt(other).claims.aud, env.otherResource);
  await refused('another resource', other);

  const unscoped = await serviceToken(env.mcpUrl, { scope: null });
  assert.equal(decodeJwt(unscoped).claims.aud, env.mcpUrl);
  assert.equal(decodeJwt(unscoped).claims.scope, undefined);
  const r = await refused('no scope', unscoped, 403, 'insufficient_scope');
  assert.equal(r.challenge.scope, SCOPE);

  const opaque = await serviceToken(env.mcpUrl, { client: 'elicitgen-e2e-opaque' });
  assert.equal(opaque.split('.').length, 1, 'an opaque token');
  await refused('opaque', opaque);

  await refused('signed by another key', forged(good));
  await refused('unsigned', forged(good, { unsigned: true }));
  return { good, descriptions };
}
