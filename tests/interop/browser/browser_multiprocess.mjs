// The api_key tool's page in chromium across two processes behind nginx (round robin), the pages in
// Redis (--forms-in-redis) under nginx's origin (--public-origin): started by
// ../multiprocess/run.sh (`run.sh chromium`), which passes nginx's URL, its access log (one line a
// request: method, URI, status, $upstream_addr) and the two processes' addresses. MCP 2026-07-28.
// The tool call, the page's GETs and POSTs and the retry all go through nginx; which process served
// each is read from the access log after it. Requests are ordered so that round robin puts the page's
// GET and its POST on different processes, and the retry on the one that did not take the POST:
//   call (X), second tab's GET (Y), first tab's GET (X), first tab's POST (Y, thank-you page),
//   retry (X, "connected openai with a key of 30 characters"), second tab's POST (Y, 410),
//   a new visit (X, 410)
// Usage: node browser_multiprocess.mjs <nginx URL> <access log> <host:port of A> <host:port of B>
// Every wait is bounded: each fetch (mcp_http.mjs), each page wait, each look at the log, the run.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { boundRun, launchChromium, puppeteerVersion } from './chromium.mjs';
import { callTool2026 } from './mcp_http.mjs';

const [origin, accessLog, addrA, addrB] = process.argv.slice(2);
if (!origin || !accessLog || !addrA || !addrB) {
  console.error('usage: node browser_multiprocess.mjs <nginx URL> <access log> <host:port of A> <host:port of B>');
  process.exit(2);
}
const OVERALL_MS = 120_000; // CTest's TIMEOUT (300 s) is above it
const PAGE_MS = 30_000; // a navigation, a selector
const LOG_MS = 5_000; // nginx writes a request's line when it has answered it
const KEY = 'sk-multiprocess-0123456789abcd'; // 30 characters
const mcpUrl = new URL('/mcp', origin).href;

let browser;
// Its processes are run.sh's: nothing of its own to stop.
boundRun('browser_multiprocess', OVERALL_MS, () => {}, () => browser);

// --- which process served a request: nginx's access log -----------------------------------------
const names = { [addrA]: 'A', [addrB]: 'B' };
let seen = 0; // lines of the log already read
function logLines() {
  return readFileSync(accessLog, 'utf8').split('\n').filter(Boolean);
}
// The next request nginx passed upstream, which must be `method` on a URI starting with `prefix`;
// its process (A or B) and status.
async function served(method, prefix) {
  const deadline = Date.now() + LOG_MS;
  for (;;) {
    const lines = logLines();
    while (seen < lines.length && lines[seen].endsWith(' -')) seen++; // "-": nginx answered itself
    if (seen < lines.length) {
      const line = lines[seen++];
      const [m, uri, status, upstream] = line.split(' ');
      assert.equal(m, method, `the next request upstream: ${line}`);
      assert.ok(uri.startsWith(prefix), `the next request upstream: ${line}`);
      const name = names[upstream];
      assert.ok(name, `served by A (${addrA}) or B (${addrB}): ${line}`);
      return { name, status: Number(status) };
    }
    if (Date.now() > deadline) throw new Error(`nginx logged no ${method} ${prefix} within ${LOG_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const steps = [];
async function step(what, method, prefix, expectStatus) {
  const { name, status } = await served(method, prefix);
  assert.equal(status, expectStatus, `${what}: HTTP ${status} in nginx's log`);
  steps.push({ what, name });
  console.log(`  ${what}: ${status}, served by ${name}`);
  return name;
}

// --- the browser ---------------------------------------------------------------------------------
async function open(page, url, expectStatus) {
  const res = await page.goto(url, { waitUntil: 'load', timeout: PAGE_MS });
  assert.equal(res.status(), expectStatus, `GET ${url}`);
}
async function press(page, action) {
  const [res] = await Promise.all([
    page.waitForNavigation({ waitUntil: 'load', timeout: PAGE_MS }),
    page.click(`button[name="action"][value="${action}"]`),
  ]);
  return res.status();
}
const heading = (page) => page.$eval('h1', (e) => e.textContent.replace(/\s+/g, ' ').trim());
async function chooseService(page, value) {
  const id = await page.$eval(`input[name="service"][value="${value}"]`, (e) => e.id);
  await page.click(`label[for="${id}"]`);
}
async function newTab(context) {
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_MS);
  page.setDefaultNavigationTimeout(PAGE_MS);
  await page.setViewport({ width: 800, height: 900 });
  return page;
}

async function run() {
  // The tool call through nginx: input_required, the page's URL under nginx's origin.
  const first = await callTool2026(mcpUrl, 'api_key');
  assert.equal(first.resultType, 'input_required', JSON.stringify(first));
  const ask = first.inputRequests['elicitation-1'];
  assert.equal(ask?.params?.mode, 'url', JSON.stringify(first.inputRequests));
  const pageUrl = new URL(ask.params.url);
  assert.equal(pageUrl.origin, new URL(origin).origin, 'the page is under nginx, whichever process opened it');
  assert.match(pageUrl.pathname, /^\/forms\/[A-Za-z0-9_-]{16,128}$/);
  const caller = await step('tools/call api_key (input_required)', 'POST', '/mcp', 200);
  const title = first._meta?.['io.modelcontextprotocol/serverInfo']?.title ?? '';
  assert.ok(title.includes(`(${caller})`), `the result names its process (${title}), as nginx's log does (${caller})`);

  const context = await browser.createBrowserContext();
  try {
    const second = await newTab(context);
    await open(second, pageUrl.href, 200);
    await step('second tab: GET the page', 'GET', pageUrl.pathname, 200);
    const tab = await newTab(context);
    await open(tab, pageUrl.href, 200);
    const get = await step('first tab: GET the page', 'GET', pageUrl.pathname, 200);
    assert.equal(await tab.title(), 'Information requested');
    await chooseService(tab, 'openai');
    await tab.type('input[name="api_key"]', KEY);
    assert.equal(await press(tab, 'accept'), 200);
    assert.equal(await heading(tab), 'Thank you');
    const post = await step('first tab: POST the key (thank-you page)', 'POST', pageUrl.pathname, 200);
    assert.notEqual(get, post, "round robin: the page's GET and its POST on different processes");

    const done = await callTool2026(mcpUrl, 'api_key', {
      inputResponses: { 'elicitation-1': { action: 'accept' } },
      requestState: first.requestState,
    });
    assert.equal(done.resultType ?? 'complete', 'complete', JSON.stringify(done));
    assert.equal(done.content[0].text, 'connected openai with a key of 30 characters');
    assert.ok(!JSON.stringify(done).includes(KEY), 'the key never reaches the MCP client');
    const retry = await step('tools/call api_key retry (complete)', 'POST', '/mcp', 200);
    assert.notEqual(retry, post, 'the retry on the process that did not take the POST');
    console.log(`  result: "${done.content[0].text}"`);

    // The second tab, opened before the answer, submits too: refused (single use, in Redis).
    await second.bringToFront(); // a background tab runs no animation frames, which clicks wait for
    await second.type('input[name="api_key"]', KEY);
    assert.equal(await press(second, 'accept'), 410);
    assert.match(await second.$eval('body', (b) => b.textContent), /already answered|no longer available/);
    const secondPost = await step('second tab: POST the key (refused)', 'POST', pageUrl.pathname, 410);
    // And a new visit, on the other process than the refusal: gone there too.
    await tab.bringToFront();
    await open(tab, pageUrl.href, 410);
    const revisit = await step('first tab: GET the page again (gone)', 'GET', pageUrl.pathname, 410);
    assert.notEqual(secondPost, revisit, 'both processes refuse the answered page');
  } finally {
    await context.close();
  }
  const processes = new Set(steps.map((s) => s.name));
  assert.deepEqual([...processes].sort(), ['A', 'B'], 'both processes served the flow');
}

let status = 0;
const started = Date.now();
try {
  seen = logLines().length; // what the earlier requests (the readiness checks) left there
  browser = await launchChromium(PAGE_MS);
  const versions = `${await browser.version()}; puppeteer-core ${puppeteerVersion()}`;
  console.log(`nginx ${origin} in front of A ${addrA} and B ${addrB}; ${versions}`);
  await run();
  console.log(`browser_multiprocess: passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (e) {
  console.error(e);
  status = 1;
} finally {
  await browser?.close().catch(() => browser?.process()?.kill('SIGKILL'));
}
process.exit(status);
