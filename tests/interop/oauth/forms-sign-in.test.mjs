// The browser form pages' own sign-in (forms::PageRoutes::sign_in) against a real OpenID provider
// (oidc-provider, authorization-server.mjs): octocat's MCP client (the official SDK of the revision
// in ELICITGEN_PROTOCOL_VERSION, with its OAuth client) calls the api_key tool and gets the page's
// URL; hubot, signed in at the same authorization server, opens it and is refused (403, no form);
// octocat's browser signs in (OpenID Connect code + PKCE, cookies kept, redirects followed by hand)
// and submits; the tool's result arrives, and the key never reaches the MCP client. run.sh starts
// both servers (run.sh REVISION SERVER forms).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ACCOUNT, CookieJar, InMemoryOAuthProvider, env } from './oauth-flow.mjs';

const revision = process.env.ELICITGEN_PROTOCOL_VERSION;
assert.ok(revision === '2025-11-25' || revision === '2026-07-28', 'run.sh sets ELICITGEN_PROTOCOL_VERSION');
const KEY = 'sk-test-0123456789abcdefghij';  // 28 characters
const CAPABILITIES = { elicitation: { form: {}, url: {} } };

// The revision's SDK: its Client, transport, and how a handler for elicitation/create is set.
async function sdk() {
  if (revision === '2025-11-25') {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const { UnauthorizedError } = await import('@modelcontextprotocol/sdk/client/auth.js');
    const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    return {
      newClient: () => new Client({ name: 'elicitgen-forms-e2e', version: '1.0.0' }, { capabilities: CAPABILITIES }),
      onElicit: (client, f) => client.setRequestHandler(ElicitRequestSchema, f),
      StreamableHTTPClientTransport,
      UnauthorizedError,
      finish: (transport, params) => transport.finishAuth(params.get('code')),
    };
  }
  const m = await import('@modelcontextprotocol/client');
  return {
    newClient: () =>
      new m.Client(
        { name: 'elicitgen-forms-e2e', version: '1.0.0' },
        { capabilities: CAPABILITIES, versionNegotiation: { mode: { pin: revision } } },
      ),
    onElicit: (client, f) => client.setRequestHandler('elicitation/create', f),
    StreamableHTTPClientTransport: m.StreamableHTTPClientTransport,
    UnauthorizedError: m.UnauthorizedError,
    finish: (transport, params) => transport.finishAuth(params),
  };
}

// A browser: GET (or POST) `url`, following every redirect by hand with `jar`'s cookies (one jar
// for both servers, as a browser keeps cookies by host, not port). `loginHint` goes on the
// authorization request, which picks the account the headless login signs in. At most 20 hops.
async function browse(jar, url, { loginHint, method = 'GET', body } = {}) {
  let target = new URL(url);
  const hops = [];
  for (let i = 0; i < 20; ++i) {
    if (loginHint && target.origin === env.issuer && target.searchParams.get('response_type') === 'code') {
      target.searchParams.set('login_hint', loginHint);
    }
    const cookie = jar.header(target);
    const headers = { ...(cookie ? { cookie } : {}), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) };
    const response = await fetch(target, { method, body, headers, redirect: 'manual', signal: AbortSignal.timeout(10000) });
    jar.store(response);
    hops.push(`${method} ${target.origin === env.issuer ? 'AS' : 'RS'}${target.pathname} ${response.status}`);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      target = new URL(location, target);
      method = 'GET';
      body = undefined;
      continue;
    }
    return { status: response.status, body: await response.text(), url: target.href, hops };
  }
  throw new Error(`more than 20 redirects: ${hops.join(', ')}`);
}

const csrfOf = (html) => /name="csrf" value="([^"]+)"/.exec(html)?.[1];

test(`${revision}: only the user whose call opened the page may answer it, after signing in`, async () => {
  const { newClient, onElicit, StreamableHTTPClientTransport, UnauthorizedError, finish } = await sdk();
  // octocat's MCP client: its access token first (the flow the other e2e tests check in detail).
  const oauth = new InMemoryOAuthProvider();
  const first = newClient();
  const transport = new StreamableHTTPClientTransport(new URL(env.mcpUrl), { authProvider: oauth });
  await assert.rejects(first.connect(transport), UnauthorizedError);
  await finish(transport, oauth.redirects[0].params);
  await first.close();

  const client = newClient();
  const seen = [];
  let gotUrl;
  const urlArrived = new Promise((resolve) => (gotUrl = resolve));
  onElicit(client, async (request) => {
    seen.push(request.params);
    if (request.params.mode === 'url') gotUrl(request.params.url);
    return { action: 'accept' };  // consent to open the URL
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(env.mcpUrl), { authProvider: oauth }));
  try {
    const call = client.callTool({ name: 'api_key', arguments: {} }, undefined, { timeout: 120000 });
    const url = await urlArrived;
    assert.ok(url.startsWith(new URL(env.mcpUrl).origin + '/forms/'), url);

    // hubot, signed in at the same authorization server, opens octocat's page: no form.
    const hubot = new CookieJar();
    const looked = await browse(hubot, url, { loginHint: 'hubot' });
    assert.ok(looked.hops.some((h) => h.startsWith('GET RS/forms/sign-in 303')), looked.hops.join(', '));
    assert.equal(looked.status, 403, looked.hops.join(', '));
    assert.equal(looked.url, url);
    assert.equal(csrfOf(looked.body), undefined);
    assert.ok(!looked.body.includes('API key'), 'no field of the form');
    const posted = await browse(hubot, url, { method: 'POST', body: `service=openai&api_key=${KEY}&action=accept` });
    assert.equal(posted.status, 403);

    // A browser that has not signed in cannot post either.
    const nobody = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `service=openai&api_key=${KEY}&action=accept`,
      redirect: 'manual',
      signal: AbortSignal.timeout(10000),
    });
    assert.equal(nobody.status, 403);
    await nobody.body?.cancel();

    // octocat signs in and answers.
    const octocat = new CookieJar();
    const page = await browse(octocat, url, { loginHint: ACCOUNT });
    assert.equal(page.status, 200, page.hops.join(', '));
    assert.ok(page.body.includes('API key'));
    const csrf = csrfOf(page.body);
    assert.ok(csrf);
    const done = await browse(octocat, url, {
      method: 'POST',
      body: `service=openai&api_key=${KEY}&action=accept&csrf=${encodeURIComponent(csrf)}`,
    });
    assert.equal(done.status, 200, done.body);

    const result = await call;
    assert.equal(result.content.map((c) => c.text).join('\n'), 'connected openai with a key of 28 characters');
    assert.ok(!JSON.stringify(result).includes(KEY));
    assert.ok(!JSON.stringify(seen).includes(KEY));
    console.log('hubot:', looked.hops.join(', '));
    console.log('octocat:', page.hops.join(', '));
  } finally {
    await client.close();
  }
});
