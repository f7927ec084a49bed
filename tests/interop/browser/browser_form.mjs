// The api_key tool's URL-mode page (samples/schemas/api_key.json) in a real browser: Debian's
// chromium, headless, driven by puppeteer-core; the MCP client is this script, plain fetch()
// JSON-RPC. See run.sh for what each revision covers.
// Usage: node browser_form.mjs 2025-11-25|2026-07-28 <elicitgen_http_server> <screenshot dir>
// Every wait is bounded: each fetch, each page wait, each SSE read (mcp_http.mjs), and the whole run
// (OVERALL_MS).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

import { boundRun, launchChromium, puppeteerVersion, withPage as withFreshPage } from './chromium.mjs';
import { Session2025, SseReader, callTool2026, newId } from './mcp_http.mjs';

const [revision, serverBin, screenshotDir] = process.argv.slice(2);
if (!['2025-11-25', '2026-07-28'].includes(revision) || !serverBin) {
  console.error('usage: node browser_form.mjs 2025-11-25|2026-07-28 <elicitgen_http_server> [<screenshot dir>]');
  process.exit(2);
}
const OVERALL_MS = 150_000; // CTest's TIMEOUT (300 s) is above it
const PAGE_MS = 30_000; // a navigation, a selector
const KEY = 'sk-test-0123456789abcdefghij'; // 28 characters
const MESSAGE =
  'Connect a service: choose it and paste its API key. The key goes to this server only, never to your MCP client.';

// --- the server child, killed on every way out -------------------------------------------------
let server;
let serverStderr = '';
let browser;
function stopAll() {
  if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
}
boundRun('browser_form', OVERALL_MS, stopAll, () => browser);

function startServer() {
  server = spawn(serverBin, ['--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  server.stderr.on('data', (d) => {
    serverStderr += d;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server printed no URL within 60 s: ${serverStderr}`)), 60_000);
    createInterface({ input: server.stdout }).once('line', (line) => {
      clearTimeout(timer);
      resolve(line.trim());
    });
    server.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code ?? signal}) before listening: ${serverStderr}`));
    });
  });
}

// The first round: input_required with one URL-mode elicitation of a page on this server.
// `args`: the tool's arguments (expires_in_ms).
async function askForKey2026(url, args = {}) {
  const first = await callTool2026(url, 'api_key', { arguments: args });
  assert.equal(first.resultType, 'input_required', JSON.stringify(first));
  const ask = first.inputRequests['elicitation-1'];
  assert.ok(ask, JSON.stringify(first.inputRequests));
  assert.equal(ask.method, 'elicitation/create');
  assert.equal(ask.params.mode, 'url');
  assert.equal(ask.params.message, MESSAGE);
  const pageUrl = new URL(ask.params.url);
  assert.equal(pageUrl.origin, new URL(url).origin, 'the page is served by the MCP server itself');
  assert.match(pageUrl.pathname, /^\/forms\/[A-Za-z0-9_-]{16,128}$/);
  assert.equal(pageUrl.search, '', 'no user data in the URL');
  return { pageUrl: pageUrl.href, requestState: first.requestState };
}

// The retry after the user consented (opened the page), with the first round's arguments: the tool's text.
async function retry2026(url, requestState, args = {}) {
  const result = await callTool2026(url, 'api_key', {
    arguments: args,
    inputResponses: { 'elicitation-1': { action: 'accept' } },
    requestState,
  });
  assert.equal(result.resultType ?? 'complete', 'complete', JSON.stringify(result));
  return result.content[0].text;
}


// --- the browser ---------------------------------------------------------------------------------
async function open(page, url, expectStatus = 200) {
  const res = await page.goto(url, { waitUntil: 'load', timeout: PAGE_MS });
  assert.equal(res.status(), expectStatus, `GET ${url}`);
  return res;
}

// Clicks a submit button and waits for the answer page; its HTTP status.
async function press(page, action) {
  const [res] = await Promise.all([
    page.waitForNavigation({ waitUntil: 'load', timeout: PAGE_MS }),
    page.click(`button[name="action"][value="${action}"]`),
  ]);
  return res.status();
}

const text = (page, selector) => page.$eval(selector, (e) => e.textContent.replace(/\s+/g, ' ').trim());
const heading = (page) => text(page, 'h1');

async function typeKey(page, key) {
  await page.$eval('input[name="api_key"]', (e) => {
    e.value = '';
  });
  await page.type('input[name="api_key"]', key);
}

async function chooseService(page, value) {
  // The label's text, as a user clicks it.
  const id = await page.$eval(`input[name="service"][value="${value}"]`, (e) => e.id);
  await page.click(`label[for="${id}"]`);
}

async function screenshot(page, name) {
  if (!screenshotDir) return;
  const file = path.join(screenshotDir, name);
  await page.screenshot({ path: file, type: 'png' });
  console.log(`  screenshot ${file}`);
}

// The page as first shown: what the user reads before typing anything.
async function checkFreshPage(page, pageUrl) {
  const res = await open(page, pageUrl);
  const csp = res.headers()['content-security-policy'] ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /form-action 'self'/);
  assert.equal(res.headers()['cache-control'], 'no-store');
  assert.equal(await page.title(), 'Information requested');
  assert.equal(await heading(page), 'Information requested');
  assert.equal(await text(page, 'p.message'), MESSAGE);
  assert.equal(await page.$$eval('script', (s) => s.length), 0, 'no script');
  // service: radios in a fieldset, "Service" its legend, GitHub chosen by default.
  assert.match(await text(page, 'fieldset legend'), /^Service\b/);
  const choices = await page.$$eval('input[name="service"]', (inputs) =>
    inputs.map((i) => ({ value: i.value, checked: i.checked, label: document.querySelector(`label[for="${i.id}"]`).textContent })),
  );
  assert.deepEqual(choices, [
    { value: 'github', checked: true, label: 'GitHub' },
    { value: 'openai', checked: false, label: 'OpenAI' },
    { value: 'stripe', checked: false, label: 'Stripe' },
  ]);
  // api_key: a password input (its name looks secret), labelled "API key", with the schema's bounds.
  const key = await page.$eval('input[name="api_key"]', (i) => ({
    type: i.type,
    label: document.querySelector(`label[for="${i.id}"]`).textContent.replace(/\s+/g, ' ').trim(),
    minLength: i.minLength,
    maxLength: i.maxLength,
    required: i.required,
    invalid: i.getAttribute('aria-invalid'),
    autocomplete: i.getAttribute('autocomplete'),
  }));
  assert.deepEqual(key, {
    type: 'password',
    label: 'API key *',
    minLength: 20,
    maxLength: 200,
    required: true,
    invalid: null,
    autocomplete: 'off',
  });
  assert.equal(await page.$eval('input[name="csrf"]', (i) => i.type), 'hidden');
  assert.deepEqual(
    await page.$$eval('button[name="action"]', (b) => b.map((x) => `${x.value}:${x.textContent}`)),
    ['accept:Accept', 'decline:Decline', 'cancel:Cancel'],
  );
}

// A key too short: the browser refuses it first (minlength), then, with the browser's own check off
// (as an old browser or a hand-made request would), the server answers 422 with the error by the
// field; the service chosen is kept, the secret is not written back.
async function submitShortKey(page) {
  await chooseService(page, 'openai');
  await typeKey(page, 'short');
  await page.click('button[name="action"][value="accept"]');
  assert.equal(await page.$eval('input[name="api_key"]', (i) => i.validity.tooShort), true);
  assert.equal(await heading(page), 'Information requested', 'the browser did not submit');
  await page.$eval('form', (f) => {
    f.noValidate = true;
  });
  assert.equal(await press(page, 'accept'), 422);
  const field = await page.$eval('input[name="api_key"]', (i) => ({
    invalid: i.getAttribute('aria-invalid'),
    describedby: (i.getAttribute('aria-describedby') ?? '').split(' '),
    errorId: `${i.id}-error`,
    value: i.value,
  }));
  assert.equal(field.invalid, 'true');
  assert.ok(field.describedby.includes(field.errorId), `aria-describedby ${field.describedby} names ${field.errorId}`);
  const error = await text(page, `#${field.errorId}`);
  assert.match(error, /20/, `the error says the minimum: ${error}`);
  assert.equal(field.value, '', 'the secret is not written back');
  assert.equal(await page.$eval('input[name="service"]:checked', (i) => i.value), 'openai', 'the service is kept');
  const summary = await text(page, '.summary[role="alert"]');
  assert.match(summary, /API key/);
  const href = await page.$eval('.summary a', (a) => a.getAttribute('href'));
  assert.equal(href, `#${field.errorId.replace(/-error$/, '')}`);
  return error;
}

const withPage = (fn) => withFreshPage(browser, PAGE_MS, fn);

// --- the flows -----------------------------------------------------------------------------------
async function run2026(url) {
  // 1. Accept: the checks of the fresh page, the light and dark screenshots, a short key (422),
  //    then a valid one while the client's retry waits; a second tab's submission is refused (410).
  await withPage(async (page, context) => {
    const { pageUrl, requestState } = await askForKey2026(url);
    await checkFreshPage(page, pageUrl);
    await screenshot(page, 'browser-form-light.png');
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    const dark = await page.$eval('body', (b) => getComputedStyle(b).backgroundColor);
    await screenshot(page, 'browser-form-dark.png');
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    const light = await page.$eval('body', (b) => getComputedStyle(b).backgroundColor);
    assert.notEqual(dark, light, 'the page follows prefers-color-scheme');
    // A second tab on the same page, opened before the answer.
    const other = await context.newPage();
    await other.setViewport({ width: 800, height: 900 });
    await open(other, pageUrl);
    await page.bringToFront(); // a background tab runs no animation frames, which clicks wait for

    const error = await submitShortKey(page);
    console.log(`  422 for a short key: "${error}"`);
    await screenshot(page, 'browser-form-errors.png');

    const retry = retry2026(url, requestState); // waits for the page (up to 20 s on the server)
    await typeKey(page, KEY);
    assert.equal(await press(page, 'accept'), 200);
    assert.equal(await heading(page), 'Thank you');
    assert.equal(await retry, 'connected openai with a key of 28 characters');

    // The other tab submits too: refused; and the page itself is gone for a new visit.
    await other.bringToFront();
    await typeKey(other, KEY);
    assert.equal(await press(other, 'accept'), 410);
    assert.match(await text(other, 'body'), /already answered|no longer available/);
    // (The request ended with that result, so the server closed the page: a new visit is refused.)
    await open(page, pageUrl, 410);
  });
  console.log('ok 2026-07-28 accept: short key 422, valid key 200, result from the retry, second tab 410');

  // 2. Decline on the page: the retry says so.
  await withPage(async (page) => {
    const { pageUrl, requestState } = await askForKey2026(url);
    await open(page, pageUrl);
    assert.equal(await press(page, 'decline'), 200);
    assert.equal(await heading(page), 'You declined');
    assert.equal(await retry2026(url, requestState), 'api key declined');
  });
  console.log('ok 2026-07-28 decline: the retry gives "api key declined"');

  // 3. A submission without the CSRF token: 403, the page still takes answers; then Cancel.
  await withPage(async (page) => {
    const { pageUrl, requestState } = await askForKey2026(url);
    await open(page, pageUrl);
    await page.$eval('input[name="csrf"]', (i) => i.remove());
    await typeKey(page, KEY);
    assert.equal(await press(page, 'accept'), 403);
    assert.equal(await heading(page), 'Form not accepted');
    await open(page, pageUrl);
    assert.equal(await press(page, 'cancel'), 200);
    assert.equal(await heading(page), 'Cancelled');
    assert.equal(await retry2026(url, requestState), 'api key cancelled');
  });
  console.log('ok 2026-07-28 no CSRF token: 403, then Cancel gives "api key cancelled"');

  // 4. An expired page: a page that lives 2 s, opened in the browser, answered after its deadline
  //    (the test waits until then: only "not before", never "by then", depends on time), is
  //    refused (410, "expired"); the retry ends the call timed_out, and the URL stays gone.
  await withPage(async (page) => {
    const LIFE_MS = 2000;
    const asked = Date.now(); // before the request: the page's deadline is later than asked + LIFE_MS
    const { pageUrl, requestState } = await askForKey2026(url, { expires_in_ms: LIFE_MS });
    const first = await page.goto(pageUrl, { waitUntil: 'load', timeout: PAGE_MS });
    const shown = first.status() === 200; // a machine slower than the page's life sees 410 at once
    if (!shown) assert.equal(first.status(), 410, `GET ${pageUrl}`);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, asked + LIFE_MS + 500 - Date.now())));
    if (shown) {
      await typeKey(page, KEY);
      assert.equal(await press(page, 'accept'), 410);
      assert.equal(await heading(page), 'This form has expired');
    }
    await open(page, pageUrl, 410);
    assert.match(await text(page, 'body'), /expired/);
    assert.equal(await retry2026(url, requestState, { expires_in_ms: LIFE_MS }), 'api key timed_out');
    await open(page, pageUrl, 410); // the retry did not open a new page under the old URL
    console.log(`  the form was ${shown ? 'shown, then its submission' : 'already'} refused after its deadline`);
  });
  console.log('ok 2026-07-28 expired page: 410 "expired", the retry gives "api key timed_out"');
}

// One tools/call api_key in a session: the elicitation/create on the call's stream, the client's
// answer to it (the user's consent, or not), then `onPage` in the browser when consented; returns
// the tool's text. The call's stream ends with the result; the session's stream (`listening`)
// carries notifications/elicitation/complete when the page was answered.
async function call2025(session, listening, signal, consent, onPage) {
  const callId = newId();
  const res = await session.post(
    { jsonrpc: '2.0', id: callId, method: 'tools/call', params: { name: 'api_key', arguments: {} } },
    signal,
  );
  assert.equal(res.status, 200);
  const stream = new SseReader(res);
  try {
    const ask = await stream.next();
    assert.equal(ask.method, 'elicitation/create', JSON.stringify(ask));
    assert.ok(ask.id !== undefined);
    assert.equal(ask.params.mode, 'url');
    assert.equal(ask.params.message, MESSAGE);
    assert.match(ask.params.elicitationId ?? '', /.+/);
    const pageUrl = new URL(ask.params.url);
    assert.equal(pageUrl.origin, new URL(session.url).origin);
    assert.match(pageUrl.pathname, /^\/forms\/[A-Za-z0-9_-]{16,128}$/);
    const answered = await session.post({ jsonrpc: '2.0', id: ask.id, result: { action: consent } });
    assert.equal(answered.status, 202);
    if (consent === 'accept') await withPage((page) => onPage(page, pageUrl.href));
    const done = await stream.next();
    assert.equal(done.id, callId, JSON.stringify(done));
    assert.ok(!JSON.stringify(done).includes(KEY), 'the key never reaches the client');
    if (consent === 'accept') {
      const complete = await listening.next();
      assert.equal(complete.method, 'notifications/elicitation/complete', JSON.stringify(complete));
      assert.equal(complete.params.elicitationId, ask.params.elicitationId);
    }
    // The call ended: its page is gone (answered, or withdrawn when the user would not open it).
    await withPage((page) => open(page, pageUrl.href, 410));
    return done.result?.content?.[0]?.text;
  } finally {
    await stream.cancel();
  }
}

async function run2025(url) {
  const session = new Session2025(url);
  await session.open();
  const streams = new AbortController();
  const bound = setTimeout(() => streams.abort(), OVERALL_MS);
  try {
    const listening = await session.listen(streams.signal);
    try {
      // 1. Consent, then a short key (422) and a valid one.
      const accepted = await call2025(session, listening, streams.signal, 'accept', async (page, pageUrl) => {
        await checkFreshPage(page, pageUrl);
        const error = await submitShortKey(page);
        console.log(`  422 for a short key: "${error}"`);
        await typeKey(page, KEY);
        assert.equal(await press(page, 'accept'), 200);
        assert.equal(await heading(page), 'Thank you');
      });
      assert.equal(accepted, 'connected openai with a key of 28 characters');
      console.log("ok 2025-11-25 accept: elicitation/create on the call's stream, consent, 422 then 200, the result; elicitation/complete on the session's stream");

      // 2. Consent, then Decline on the page.
      const declined = await call2025(session, listening, streams.signal, 'accept', async (page, pageUrl) => {
        await open(page, pageUrl);
        assert.equal(await press(page, 'decline'), 200);
        assert.equal(await heading(page), 'You declined');
      });
      assert.equal(declined, 'api key declined');
      console.log('ok 2025-11-25 decline on the page: "api key declined", elicitation/complete');

      // 3. The user will not open the page: the client declines; the page is withdrawn.
      const refused = await call2025(session, listening, streams.signal, 'decline');
      assert.equal(refused, 'api key declined');
      console.log('ok 2025-11-25 consent declined: "api key declined", the page withdrawn (410)');
    } finally {
      await listening.cancel();
    }
  } finally {
    clearTimeout(bound);
    streams.abort();
    await session.close().catch(() => {});
  }
}

// --- main ----------------------------------------------------------------------------------------
let status = 0;
const started = Date.now();
try {
  if (screenshotDir) mkdirSync(screenshotDir, { recursive: true });
  const url = await startServer();
  browser = await launchChromium(PAGE_MS);
  console.log(`server ${url} (${revision}); ${await browser.version()}; puppeteer-core ${puppeteerVersion()}`);
  if (revision === '2026-07-28') await run2026(url);
  else await run2025(url);
  console.log(`browser_form ${revision}: passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (e) {
  console.error(e);
  status = 1;
} finally {
  await browser?.close().catch(() => browser?.process()?.kill('SIGKILL'));
  if (server && (server.exitCode !== null || server.signalCode !== null)) {
    console.error(`the server exited during the test (${server.exitCode ?? server.signalCode})`);
    status = 1;
  } else if (server) {
    // The server stops cleanly on SIGTERM; up to 10 s, then it is killed.
    const exited = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));
    server.kill('SIGTERM');
    const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
    const { code, signal } = await exited;
    clearTimeout(timer);
    if (code !== 0) {
      console.error(`the server exited with ${code ?? signal} after SIGTERM`);
      status = 1;
    }
  }
}
if (status !== 0 && serverStderr) console.error(`--- server stderr\n${serverStderr}`);
process.exit(status);
