// OAuth 2.1 end to end, 2025-11-25 (@modelcontextprotocol/sdk 1.x, initialize and sessions): the SDK's
// OAuth client gets a real authorization server's (oidc-provider's) RFC 9068 JWT access token for the
// protected sample server, then a tool call elicits a typed form. run.sh starts both servers.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import {
  ACCOUNT,
  InMemoryOAuthProvider,
  REDIRECT_URI,
  SCOPE,
  assertAccessTokenForResource,
  bearerChallenge,
  checkRefusedTokens,
  env,
  rawPost,
  recordingFetch,
} from './oauth-flow.mjs';

const FORM = { elicitation: {} };
const CONTACT = { name: 'Monalisa Octocat', email: 'octocat@github.com', age: 30 };
const CONTACT_TEXT = 'accept: {"age":30.0,"email":"octocat@github.com","name":"Monalisa Octocat"}';
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

function newClient(seen) {
  const client = new Client({ name: 'elicitgen-oauth-e2e', version: '1.0.0' }, { capabilities: FORM });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    seen.push(request.params);
    return { action: 'accept', content: CONTACT };
  });
  return client;
}

test('no token: 401 naming the protected resource metadata, which names the authorization server', async () => {
  const { status, challenge } = await rawPost(INITIALIZE);
  assert.equal(status, 401);
  const origin = new URL(env.mcpUrl).origin;
  assert.equal(challenge.resource_metadata, `${origin}/.well-known/oauth-protected-resource/mcp`);
  const prm = await (await fetch(challenge.resource_metadata, { signal: AbortSignal.timeout(10000) })).json();
  assert.equal(prm.resource, env.mcpUrl);
  assert.deepEqual(prm.authorization_servers, [env.issuer]);
  assert.deepEqual(prm.scopes_supported, [SCOPE]);
});

test('the whole flow: discovery, registration, authorization code + PKCE, token, then an elicitation', async () => {
  const provider = new InMemoryOAuthProvider();
  const log = [];
  const seen = [];

  // 1. No token yet: the server's 401 starts the flow; the provider's redirect is followed headless.
  const first = newClient(seen);
  const transport = new StreamableHTTPClientTransport(new URL(env.mcpUrl), { authProvider: provider, fetch: recordingFetch(log) });
  await assert.rejects(first.connect(transport), UnauthorizedError);
  assert.equal(provider.redirects.length, 1, 'one authorization');
  const { authorizationUrl, params, hops } = provider.redirects[0];
  // The user agent went through login, then consent, each answered by the headless interaction route.
  const interactions = hops.filter((h) => new URL(h.url).pathname.startsWith('/interaction/'));
  assert.equal(interactions.length, 2, JSON.stringify(hops));
  assert.ok(params.get('code'), `a code in the callback: ${params}`);
  assert.equal(params.get('iss'), env.issuer, 'RFC 9207 iss in the authorization response');

  // 2. The code for tokens (PKCE verifier, resource), then a new connection with the token.
  await transport.finishAuth(params.get('code'));
  const clientId = provider.clientInfo?.client_id;
  assert.ok(clientId, 'registered dynamically');
  assert.equal(provider.clientInfo.token_endpoint_auth_method, 'none', 'a public client');
  assert.equal(provider.clientInfo.client_secret, undefined);
  const { header, claims } = assertAccessTokenForResource(provider.savedTokens.access_token, { sub: ACCOUNT, clientId });
  assert.equal(provider.savedTokens.token_type.toLowerCase(), 'bearer');
  await first.close();

  const client = newClient(seen);
  await client.connect(new StreamableHTTPClientTransport(new URL(env.mcpUrl), { authProvider: provider, fetch: recordingFetch(log) }));
  try {
    assert.equal(client.getServerVersion().name, 'elicitgen-sample-server');
    const result = await client.callTool({ name: 'contact_information', arguments: {} });
    assert.equal(result.isError === true, false);
    assert.equal(result.content.map((c) => c.text).join('\n'), CONTACT_TEXT);
    assert.equal(seen.length, 1);
    assert.equal(seen[0].mode, 'form');
    assert.deepEqual(seen[0].requestedSchema.required, ['name', 'email']);
  } finally {
    await client.close();
  }

  // The wire, in order: 401, metadata discovery (resource, then authorization server), registration,
  // token; the authorization request with PKCE S256 and the resource indicator.
  const mcp = (r) => r.url.href === env.mcpUrl;
  assert.equal(log[0].status, 401);
  assert.ok(mcp(log[0]));
  const resourceMetadataUrl = bearerChallenge(log[0].wwwAuthenticate).resource_metadata;
  const path = (r) => `${r.method} ${r.url.origin === env.issuer ? 'AS' : 'RS'}${r.url.pathname} ${r.status}`;
  const steps = log.map(path);
  const at = (step) => {
    const i = steps.indexOf(step);
    assert.ok(i >= 0, `${step} in ${steps.join(', ')}`);
    return i;
  };
  const prm = at(`GET RS${new URL(resourceMetadataUrl).pathname} 200`);
  const asMetadata = steps.findIndex((s) => /^GET AS\/\.well-known\/(oauth-authorization-server|openid-configuration) 200$/.test(s));
  const reg = at('POST AS/reg 201');
  const token = at('POST AS/token 200');
  assert.ok(prm < asMetadata && asMetadata < reg && reg < token, steps.join(', '));
  const tokenRequest = new URLSearchParams(String(log[token].body));
  assert.equal(tokenRequest.get('grant_type'), 'authorization_code');
  assert.equal(tokenRequest.get('resource'), env.mcpUrl);
  assert.ok(tokenRequest.get('code_verifier'));
  assert.equal(tokenRequest.get('redirect_uri'), REDIRECT_URI);
  assert.equal(authorizationUrl.searchParams.get('resource'), env.mcpUrl);
  assert.equal(authorizationUrl.searchParams.get('code_challenge_method'), 'S256');
  assert.ok(authorizationUrl.searchParams.get('scope').split(' ').includes(SCOPE));
  assert.equal(authorizationUrl.searchParams.get('client_id'), clientId);
  // Every MCP request after the token carries it, and none is refused.
  for (const r of log.slice(token + 1).filter(mcp)) {
    assert.equal(r.headers.get('authorization'), `Bearer ${provider.savedTokens.access_token}`);
    assert.ok(r.status < 300, `${r.method} ${r.status}`);
  }
  console.log('access token header', JSON.stringify(header), 'claims', JSON.stringify({ ...claims, jti: '…' }));
});

test('refused: tokens for another resource, without the scope, opaque, forged or unsigned; accepted: the control', async () => {
  const { good, descriptions } = await checkRefusedTokens(INITIALIZE);
  console.log('refused:', JSON.stringify(descriptions));

  // The control: the same client's token for this resource opens the server (sub is the client).
  const mine = good;
  assertAccessTokenForResource(mine, { sub: 'elicitgen-e2e-service', clientId: 'elicitgen-e2e-service' });
  const withToken = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${mine}`);
    return fetch(input, { ...init, headers });
  };
  const client = new Client({ name: 'elicitgen-oauth-e2e', version: '1.0.0' }, { capabilities: FORM });
  await client.connect(new StreamableHTTPClientTransport(new URL(env.mcpUrl), { fetch: withToken }));
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'contact_information'));
  } finally {
    await client.close();
  }
});
