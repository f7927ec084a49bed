// A real OAuth 2.1 authorization server for the OAuth end-to-end test: oidc-provider (the version in
// package-lock.json) on a free loopback port, issuing RFC 9068 JWT access tokens (`typ: at+jwt`,
// ES256) for the MCP server's resource (RFC 8707 resource indicators). Prints its issuer
// (http://127.0.0.1:PORT, no trailing slash) on stdout once listening and serves until SIGTERM/SIGINT.
//
// Environment:
//   MCP_RESOURCE  the MCP server's canonical URI (http://127.0.0.1:PORT/mcp): the only resource the
//                 authorization code flow issues tokens for, and the default resource
//   OTHER_RESOURCE  a second resource server this AS knows (tokens for it must not open the MCP server)
//   SERVICE_CLIENT_SECRET  the secret of the pre-registered confidential clients (client_credentials
//                 only) with which the test gets tokens for either resource: `elicitgen-e2e-service`
//                 (JWTs, like every other client) and `elicitgen-e2e-opaque` (opaque tokens)
//   FORMS_REDIRECT_URI  optional: the MCP server's browser form pages sign in here (OpenID Connect),
//                 as the pre-registered public client `elicitgen-e2e-forms` with this redirect URI
//                 (http://127.0.0.1:PORT/forms/sign-in); its ID tokens are ES256 like the rest
//
// What a person would do in a browser is headless here: /interaction/:uid logs in an account (the
// authorization request's login_hint when it names one of ACCOUNTS, else `octocat`) and grants the
// scopes and resource asked for, then hands back to oidc-provider with interactionFinished (a 303 to
// /auth/:uid, which redirects to the client's redirect URI with the code). The client follows these
// redirects itself, keeping the cookies.
// Dynamic client registration is open (no initial access token); PKCE (S256) is required.
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';

import Provider, { errors } from 'oidc-provider';

const resource = process.env.MCP_RESOURCE;
const other = process.env.OTHER_RESOURCE;
const serviceSecret = process.env.SERVICE_CLIENT_SECRET;
const formsRedirectUri = process.env.FORMS_REDIRECT_URI;
if (!resource || !other || !serviceSecret) {
  console.error('set MCP_RESOURCE, OTHER_RESOURCE and SERVICE_CLIENT_SECRET');
  process.exit(2);
}
const ACCOUNT = 'octocat';
// A second person, for the browser form pages' test: signed in, they must not answer octocat's page.
const ACCOUNTS = [ACCOUNT, 'hubot'];
const FORMS_CLIENT = 'elicitgen-e2e-forms';
const SCOPE = 'mcp';

const server = http.createServer();
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(0, '127.0.0.1', resolve);
});
const issuer = `http://127.0.0.1:${server.address().port}`;

// A fresh ES256 signing key per run; the MCP server finds it through the issuer's metadata (jwks_uri).
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'e2e-es256', use: 'sig', alg: 'ES256' };

const resourceServers = {
  [resource]: { scope: SCOPE, audience: resource },
  [other]: { scope: SCOPE, audience: other },
};

const provider = new Provider(issuer, {
  jwks: { keys: [signingKey] },
  scopes: ['openid', 'offline_access', SCOPE],
  // The one key is ES256, so ID tokens (should a client ask for openid) are signed with it too.
  clientDefaults: { id_token_signed_response_alg: 'ES256' },
  clients: [
    {
      client_id: 'elicitgen-e2e-service',
      client_secret: serviceSecret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: SCOPE,
    },
    // The same, except that its access tokens are opaque (not JWTs): the MCP server cannot verify them.
    {
      client_id: 'elicitgen-e2e-opaque',
      client_secret: serviceSecret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: SCOPE,
    },
    // The MCP server's browser form pages (forms::PageRoutes::sign_in): a public client, PKCE,
    // asking for openid only.
    ...(formsRedirectUri
      ? [
          {
            client_id: FORMS_CLIENT,
            grant_types: ['authorization_code'],
            response_types: ['code'],
            redirect_uris: [formsRedirectUri],
            token_endpoint_auth_method: 'none',
            scope: 'openid',
          },
        ]
      : []),
  ],
  findAccount: async (_ctx, sub) => (ACCOUNTS.includes(sub) ? { accountId: sub, claims: async () => ({ sub }) } : undefined),
  features: {
    devInteractions: { enabled: false },
    registration: { enabled: true },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      // The pages' sign-in wants an ID token, not an access token for the MCP server.
      defaultResource: async (_ctx, client, oneOf) => (client.clientId === FORMS_CLIENT ? undefined : oneOf ?? resource),
      useGrantedResource: async () => true,
      getResourceServerInfo: async (_ctx, indicator, client) => {
        const known = resourceServers[indicator];
        if (!known) throw new errors.InvalidTarget();
        if (client.clientId === 'elicitgen-e2e-opaque') return { ...known, accessTokenTTL: 600, accessTokenFormat: 'opaque' };
        return { ...known, accessTokenTTL: 600, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } };
      },
    },
  },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  // No refresh tokens are needed for the test; issue them only when asked (offline_access).
  issueRefreshToken: async (_ctx, client, code) =>
    client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
});
provider.on('server_error', (_ctx, err) => console.error('oidc-provider server_error:', err));

// The headless login and consent: one step per visit, each ending in oidc-provider's own redirect.
async function interaction(req, res) {
  const details = await provider.interactionDetails(req, res);
  const { prompt, params, session } = details;
  if (prompt.name === 'login') {
    const accountId = ACCOUNTS.includes(params.login_hint) ? params.login_hint : ACCOUNT;
    await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
    return;
  }
  if (prompt.name === 'consent') {
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    const missingOIDCScope = prompt.details.missingOIDCScope;
    if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
    const missingResourceScopes = prompt.details.missingResourceScopes ?? {};
    for (const [indicator, scopes] of Object.entries(missingResourceScopes)) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return;
  }
  res.statusCode = 400;
  res.end(`unexpected prompt ${prompt.name}`);
}

const callback = provider.callback();
server.on('request', (req, res) => {
  if (/^\/interaction\/[^/?]+/.test(req.url)) {
    interaction(req, res).catch((err) => {
      console.error('interaction failed:', err);
      if (!res.headersSent) res.statusCode = 500;
      res.end(String(err));
    });
    return;
  }
  callback(req, res);
});

const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
console.log(issuer);
