// The browser form pages' own sign-in (docs/server.md "Signing the browser in") in a real browser:
// Debian's chromium, headless, driven by puppeteer-core, against a real OpenID provider
// (oidc-provider: ../oauth/authorization-server.mjs, run on ../oauth's pinned node). Either revision.
//   1. octocat's MCP client (this script, plain fetch() JSON-RPC) gets its access token as an MCP
//      client does (dynamic registration, authorization code + PKCE, login_hint=octocat, the
//      redirects walked by ../oauth/oauth-flow.mjs's headless user agent) and calls api_key with it
//      (mcp_http.mjs): 2026-07-28 input_required with the page's URL; 2025-11-25 a session, and
//      elicitation/create (url mode) on the call's SSE stream, consented (202).
//   2. A browser context signs in as hubot: the page's GET redirects to the authorization server,
//      whose authorization request the test rewrites with login_hint=hubot (request interception),
//      the headless login and consent, back through /forms/sign-in to the page: 403, no form, no
//      CSRF token in the DOM, nothing of the page.
//   3. A fresh incognito context (browser.createBrowserContext()) signs in as octocat the same way:
//      the form. Chromium's cookie store (CDP Network.getCookies) then holds
//      __Host-elicit-form-session for http://127.0.0.1 (loopback is a secure context): Path=/,
//      Secure, HttpOnly, SameSite=Lax, host-only, expiring in 8 h; the sign-in's transaction cookie
//      is gone; the page opened again goes straight to the form (chromium sent the cookie back).
//      (hubot's context likewise: signed in, the page again 403 without a trip to the AS.)
//   4. The key filled in and submitted ("Thank you"); the tool's result, "connected openai with a
//      key of 28 characters" and not the key, on the retry (2026-07-28) or the call's stream, then
//      notifications/elicitation/complete on the session's GET stream (2025-11-25).
// Both servers run on loopback (this script starts them on free ports and always stops them; the
// MCP server must exit 0 on SIGTERM). Every wait is bounded: each fetch, each SSE message, each page
// wait, the whole run.
// Usage: node browser_sign_in.mjs 2025-11-25|2026-07-28 <elicitgen_http_server> <oauth dir>
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

import { boundRun, launchChromium } from './chromium.mjs';
import { Session2025, SseReader, callTool2026, newId } from './mcp_http.mjs';

const [revision, serverBin, oauthDir] = process.argv.slice(2);
if (!['2025-11-25', '2026-07-28'].includes(revision) || !serverBin || !oauthDir) {
  console.error('usage: node browser_sign_in.mjs 2025-11-25|2026-07-28 <elicitgen_http_server> <oauth dir>');
  process.exit(2);
}
const OAUTH_NODE = path.join(oauthDir, 'node_modules/.bin/node');
const OVERALL_MS = 150_000; // CTest's TIMEOUT (300 s) is above it
const PAGE_MS = 30_000; // a navigation, a selector
const KEY = 'sk-test-0123456789abcdefghij'; // 28 characters
const FORMS_CLIENT = 'elicitgen-e2e-forms';
const SESSION_COOKIE = '__Host-elicit-form-session';

// --- the two servers, killed on every way out ----------------------------------------------------
const children = [];
let browser;
function stopAll() {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}
boundRun('browser_sign_in', OVERALL_MS, stopAll, () => browser);

// Starts a child and resolves with the first line it prints, within 60 s.
function start(command, args, env) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.push(child);
  child.stderrText = '';
  child.stderr.on('data', (d) => {
    child.stderrText += d;
  });
  const line = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${path.basename(command)} printed nothing within 60 s: ${child.stderrText}`)), 60_000);
    createInterface({ input: child.stdout }).once('line', (l) => {
      clearTimeout(timer);
      resolve(l.trim());
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${path.basename(command)} exited (${code ?? signal}) before listening: ${child.stderrText}`));
    });
  });
  return { child, line };
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });

// The MCP server's port is in the resource URL both servers need before either starts: a free port
// is picked and released, so another process may take it first; then both start again, three times
// at most (as ../oauth/run.sh does).
async function startServers() {
  let lastError;
  for (let attempt = 1; attempt <= 3; ++attempt) {
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    const env = {
      MCP_RESOURCE: resource,
      OTHER_RESOURCE: `http://127.0.0.1:${port}/other`,
      SERVICE_CLIENT_SECRET: randomBytes(18).toString('base64url'),
      FORMS_REDIRECT_URI: `http://127.0.0.1:${port}/forms/sign-in`,
    };
    const as = start(OAUTH_NODE, [path.join(oauthDir, 'authorization-server.mjs')], env);
    const issuer = await as.line;
    const mcp = start(serverBin, [
      '--port', String(port), '--authorization-server', issuer, '--resource', resource, '--scope', 'mcp',
      '--forms-client-id', FORMS_CLIENT,
    ]);
    try {
      const url = await mcp.line;
      assert.equal(url, resource, 'the MCP server listens at the resource URL');
      return { issuer, url, env, as: as.child, mcp: mcp.child };
    } catch (e) {
      lastError = e;
      console.error(`attempt ${attempt}: the MCP server did not start on port ${port}: ${e.message}`);
      as.child.kill('SIGKILL');
    }
  }
  throw lastError;
}

// --- octocat's MCP client: its token, then tools/call api_key (2026-07-28, stateless) ----------
async function json(res, expect = 200) {
  const text = await res.text();
  assert.equal(res.status, expect, text);
  return JSON.parse(text);
}

// Authorization code + PKCE for the MCP server's resource, as an MCP client gets it; the login at
// the authorization server is octocat's (login_hint).
async function accessToken(issuer, resource, flow) {
  const meta = await json(await fetch(`${issuer}/.well-known/oauth-authorization-server`, { signal: AbortSignal.timeout(10_000) }));
  const client = await json(
    await fetch(meta.registration_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'elicitgen browser sign-in test',
        redirect_uris: [flow.REDIRECT_URI],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        scope: flow.SCOPE,
      }),
      signal: AbortSignal.timeout(10_000),
    }),
    201,
  );
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const authorize = new URL(meta.authorization_endpoint);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: flow.REDIRECT_URI,
    scope: flow.SCOPE,
    resource,
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    login_hint: flow.ACCOUNT,
  });
  const { params } = await flow.userAgent(authorize);
  assert.equal(params.get('state'), state);
  assert.equal(params.get('iss'), issuer);
  const tokens = await json(
    await fetch(meta.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: params.get('code'),
        redirect_uri: flow.REDIRECT_URI,
        client_id: client.client_id,
        code_verifier: verifier,
        resource,
      }),
      signal: AbortSignal.timeout(10_000),
    }),
  );
  flow.assertAccessTokenForResource(tokens.access_token, { sub: flow.ACCOUNT, clientId: client.client_id });
  return tokens.access_token;
}

// tools/call api_key as octocat's MCP client at `revision`, up to the page's URL; `result()` then
// waits for the tool's result (2026-07-28: the retry with the consent and requestState; 2025-11-25:
// the rest of the call's SSE stream, and notifications/elicitation/complete on the session's own).
async function callApiKey(revision, url, token) {
  const authorization = `Bearer ${token}`;
  const checkUrl = (raw) => {
    const pageUrl = new URL(raw);
    assert.equal(pageUrl.origin, new URL(url).origin, 'the page is served by the MCP server itself');
    assert.match(pageUrl.pathname, /^\/forms\/[A-Za-z0-9_-]{16,128}$/);
    return pageUrl;
  };
  if (revision === '2026-07-28') {
    const first = await callTool2026(url, 'api_key', {}, { authorization });
    assert.equal(first.resultType, 'input_required', JSON.stringify(first));
    const ask = first.inputRequests['elicitation-1'];
    assert.equal(ask?.params?.mode, 'url', JSON.stringify(first.inputRequests));
    return {
      pageUrl: checkUrl(ask.params.url),
      what: 'input_required',
      result: async () => {
        const done = await callTool2026(
          url,
          'api_key',
          { inputResponses: { 'elicitation-1': { action: 'accept' } }, requestState: first.requestState },
          { authorization },
        );
        assert.equal(done.resultType ?? 'complete', 'complete', JSON.stringify(done));
        return done;
      },
      close: async () => {},
    };
  }
  const session = new Session2025(url, { authorization });
  await session.open();
  const streams = new AbortController();
  const bound = setTimeout(() => streams.abort(), OVERALL_MS);
  const close = async () => {
    clearTimeout(bound);
    streams.abort();
    await session.close().catch(() => {});
  };
  try {
    const listening = await session.listen(streams.signal);
    const callId = newId();
    const res = await session.post(
      { jsonrpc: '2.0', id: callId, method: 'tools/call', params: { name: 'api_key', arguments: {} } },
      streams.signal,
    );
    assert.equal(res.status, 200);
    const stream = new SseReader(res);
    const ask = await stream.next();
    assert.equal(ask.method, 'elicitation/create', JSON.stringify(ask));
    assert.equal(ask.params.mode, 'url');
    const pageUrl = checkUrl(ask.params.url);
    const consented = await session.post({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept' } });
    assert.equal(consented.status, 202);
    return {
      pageUrl,
      what: "elicitation/create on the call's SSE stream, the consent 202",
      result: async () => {
        const done = await stream.next();
        assert.equal(done.id, callId, JSON.stringify(done));
        assert.ok(done.result, JSON.stringify(done));
        const complete = await listening.next();
        assert.equal(complete.method, 'notifications/elicitation/complete', JSON.stringify(complete));
        assert.equal(complete.params.elicitationId, ask.params.elicitationId);
        return done.result;
      },
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

// --- the browser ---------------------------------------------------------------------------------
// A context whose authorization requests (at `issuer`, response_type=code) carry login_hint=`account`:
// what picks the account the authorization server's headless login signs in.
async function signingInPage(context, issuer, account) {
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_MS);
  page.setDefaultNavigationTimeout(PAGE_MS);
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (request.isInterceptResolutionHandled()) return;
    const u = new URL(request.url());
    if (u.origin === issuer && u.searchParams.get('response_type') === 'code') {
      assert.equal(u.searchParams.get('client_id'), FORMS_CLIENT);
      u.searchParams.set('login_hint', account);
      request.continue({ url: u.href });
    } else {
      request.continue();
    }
  });
  return page;
}

// Opens the page; the navigation's final response and the hops before it.
async function openPage(page, pageUrl) {
  const res = await page.goto(pageUrl, { waitUntil: 'load', timeout: PAGE_MS });
  const hops = [...res.request().redirectChain(), res.request()].map((r) => {
    const u = new URL(r.url());
    const status = r.response()?.status();
    return `${u.port === new URL(pageUrl).port ? 'RS' : 'AS'}${u.pathname} ${status}`;
  });
  return { res, hops };
}

// What chromium's cookie store holds for `url`, with every attribute (CDP).
async function cookiesFor(page, url) {
  const cdp = await page.createCDPSession();
  try {
    const { cookies } = await cdp.send('Network.getCookies', { urls: [url] });
    return cookies;
  } finally {
    await cdp.detach().catch(() => {});
  }
}

function checkSessionCookie(cookies, origin) {
  const session = cookies.find((c) => c.name === SESSION_COOKIE);
  assert.ok(session, `chromium kept no ${SESSION_COOKIE} for ${origin}: ${JSON.stringify(cookies)}`);
  const { hostname } = new URL(origin);
  assert.equal(session.domain, hostname, 'host-only');
  assert.equal(session.path, '/');
  assert.equal(session.secure, true);
  assert.equal(session.httpOnly, true);
  assert.equal(session.sameSite, 'Lax');
  // Max-Age: the session's lifetime (8 h by default), as chromium computed its expiry.
  const left = session.expires - Date.now() / 1000;
  assert.ok(!session.session && left > 7.9 * 3600 && left <= 8 * 3600 + 5, `expires in ${left} s`);
  assert.deepEqual(
    cookies.filter((c) => c.name.startsWith('__Host-elicit-sign-in-')).map((c) => c.name),
    [],
    'the transaction cookie is deleted on the way back',
  );
  return session;
}

const heading = (page) => page.$eval('h1', (e) => e.textContent.replace(/\s+/g, ' ').trim());

// --- main ----------------------------------------------------------------------------------------
let status = 0;
const started = Date.now();
let servers;
let call;
try {
  servers = await startServers();
  const { issuer, url } = servers;
  Object.assign(process.env, {
    ELICITGEN_HTTP_URL: url,
    OAUTH_ISSUER: issuer,
    OTHER_RESOURCE: servers.env.OTHER_RESOURCE,
    SERVICE_CLIENT_SECRET: servers.env.SERVICE_CLIENT_SECRET,
  });
  const flow = await import(pathToFileURL(path.resolve(oauthDir, 'oauth-flow.mjs')).href); // reads the environment
  const origin = new URL(url).origin;

  // 1. octocat's MCP client.
  const token = await accessToken(issuer, url, flow);
  call = await callApiKey(revision, url, token);
  const { pageUrl } = call;
  console.log(`ok 1 octocat's token (sub octocat, aud ${url}); tools/call api_key: ${call.what}; the page ${pageUrl.pathname.slice(0, 16)}...`);

  browser = await launchChromium(PAGE_MS);
  console.log(`MCP server ${url}, authorization server ${issuer}; ${await browser.version()}`);

  // 2. hubot signs in and opens octocat's page.
  const hubotContext = await browser.createBrowserContext();
  const hubot = await signingInPage(hubotContext, issuer, 'hubot');
  const refused = await openPage(hubot, pageUrl.href);
  assert.ok(refused.hops.includes('RS/forms/sign-in 303'), refused.hops.join(', '));
  assert.ok(refused.hops.some((h) => h.startsWith('AS/interaction/')), refused.hops.join(', '));
  assert.equal(refused.res.status(), 403, refused.hops.join(', '));
  assert.equal(hubot.url(), pageUrl.href);
  assert.equal(await hubot.$('form'), null, 'no form');
  assert.equal(await hubot.$('input[name="csrf"]'), null, 'no CSRF token');
  assert.equal(await hubot.$('input'), null, 'no input');
  assert.ok(!(await hubot.content()).includes('API key'), 'nothing of the page');
  checkSessionCookie(await cookiesFor(hubot, origin), origin); // hubot is signed in, just not the page's user
  const again = await openPage(hubot, pageUrl.href);
  assert.deepEqual(again.hops, [`RS${pageUrl.pathname} 403`], 'signed in: no second trip to the authorization server');
  console.log(`ok 2 hubot signed in, refused: 403, no form, no CSRF token (${refused.hops.join(', ')})`);
  await hubotContext.close();

  // 3. octocat, in a fresh incognito context.
  const octocatContext = await browser.createBrowserContext();
  const octocat = await signingInPage(octocatContext, issuer, flow.ACCOUNT);
  const shown = await openPage(octocat, pageUrl.href);
  assert.equal(shown.res.status(), 200, shown.hops.join(', '));
  assert.ok(shown.hops.includes('RS/forms/sign-in 303'), shown.hops.join(', '));
  assert.equal(octocat.url(), pageUrl.href);
  assert.equal(await heading(octocat), 'Information requested');
  assert.ok(await octocat.$eval('input[name="csrf"]', (i) => i.value.length > 0), 'a CSRF token');
  const session = checkSessionCookie(await cookiesFor(octocat, origin), origin);
  // Chromium sends it back over http://127.0.0.1: the page again, straight away.
  const reopened = await openPage(octocat, pageUrl.href);
  assert.deepEqual(reopened.hops, [`RS${pageUrl.pathname} 200`], 'signed in: no second trip to the authorization server');
  const attributes = ['Path=/', session.secure && 'Secure', session.httpOnly && 'HttpOnly', `SameSite=${session.sameSite}`]
    .filter(Boolean)
    .join('; ');
  console.log(`ok 3 octocat signed in: the form (${shown.hops.join(', ')})`);
  console.log(`  chromium's cookie: ${session.name} for ${session.domain} (host-only), ${attributes}, expires in ${((session.expires - Date.now() / 1000) / 3600).toFixed(2)} h, sourceScheme ${session.sourceScheme}, ${session.value.length} characters`);

  // 4. The key submitted; the tool's result arrives at the MCP client.
  const id = await octocat.$eval('input[name="service"][value="openai"]', (e) => e.id);
  await octocat.click(`label[for="${id}"]`);
  await octocat.type('input[name="api_key"]', KEY);
  const [answered] = await Promise.all([
    octocat.waitForNavigation({ waitUntil: 'load', timeout: PAGE_MS }),
    octocat.click('button[name="action"][value="accept"]'),
  ]);
  assert.equal(answered.status(), 200);
  assert.equal(await heading(octocat), 'Thank you');
  const done = await call.result();
  assert.equal(done.content[0].text, 'connected openai with a key of 28 characters');
  assert.ok(!JSON.stringify(done).includes(KEY), 'the key never reaches the MCP client');
  console.log(`ok 4 submitted: "Thank you"; ${revision === '2026-07-28' ? 'the retry' : "the call's stream, then elicitation/complete"}: "${done.content[0].text}"`);
  await octocatContext.close();
  console.log(`browser_sign_in ${revision}: passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (e) {
  console.error(e);
  status = 1;
} finally {
  await call?.close().catch(() => {});
  await browser?.close().catch(() => browser?.process()?.kill('SIGKILL'));
  if (servers) {
    const { mcp, as } = servers;
    if (mcp.exitCode !== null || mcp.signalCode !== null) {
      console.error(`the MCP server exited during the test (${mcp.exitCode ?? mcp.signalCode})`);
      status = 1;
    } else {
      // The MCP server stops cleanly on SIGTERM; up to 10 s, then it is killed.
      const exited = new Promise((resolve) => mcp.once('exit', (code, signal) => resolve({ code, signal })));
      mcp.kill('SIGTERM');
      const timer = setTimeout(() => mcp.kill('SIGKILL'), 10_000);
      const { code, signal } = await exited;
      clearTimeout(timer);
      if (code !== 0) {
        console.error(`the MCP server exited with ${code ?? signal} after SIGTERM`);
        status = 1;
      }
    }
    as.kill('SIGTERM');
    if (status !== 0) {
      console.error(`--- authorization server stderr\n${as.stderrText}`);
      console.error(`--- MCP server stderr\n${mcp.stderrText}`);
    }
  }
}
process.exit(status);
