// The client side of run.sh: a three-round tool call through nginx (round robin over two
// processes), checking that the rounds were served by both and that the flow completed; then the
// second round's state brought to a process with another key: refused. Then the sign_in tool (URL
// mode finished out of band) through both processes: pending until the "web page" (this client,
// writing to the Redis both servers use) marks the interaction complete, then complete. Then the
// api_key tool's browser form page (its pages in Redis, --forms-in-redis): opened by the process
// that served the call, fetched and submitted on the other one, and the retry's result arrives;
// a second submission is refused by either, and a process with another key does not know the page.
import assert from 'node:assert/strict';
import net from 'node:net';

import { rpcClient } from './rpc.mjs';

const [balanced, other, redisPort, urlA, urlB, publicOrigin] = process.argv.slice(2);
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'multiprocess-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {}, url: {} } },
};
const rpc = rpcClient(meta);
// A tools/call; `extra` adds params (inputResponses, requestState).
const call = (url, name, extra = {}) => rpc(url, 'tools/call', { name, arguments: {}, ...extra }, name);

const tool = 'test_input_required_result_multi_round';
const served = (m) => m.result?._meta?.['io.modelcontextprotocol/serverInfo']?.title;

const r1 = await call(balanced, tool);
assert.equal(r1.result.resultType, 'input_required', JSON.stringify(r1));
const r2 = await call(balanced, tool, {
  inputResponses: { step1: { action: 'accept', content: { name: 'Alice' } } },
  requestState: r1.result.requestState,
});
assert.equal(r2.result.resultType, 'input_required', JSON.stringify(r2));
const r3 = await call(balanced, tool, {
  inputResponses: { step2: { action: 'accept', content: { color: 'blue' } } },
  requestState: r2.result.requestState,
});
assert.equal(r3.result.resultType, 'complete', JSON.stringify(r3));
assert.equal(r3.result.content[0].text, 'Multi-round complete for Alice who likes blue');
const titles = [r1, r2, r3].map(served);
console.log('rounds served by:', titles.join(' | '));
assert.ok(titles.every(Boolean), 'every result names its server');
assert.notEqual(titles[0], titles[1], 'round robin: rounds 1 and 2 on different processes');
assert.notEqual(titles[1], titles[2], 'round robin: rounds 2 and 3 on different processes');

// A process with a key of its own cannot open the state.
const refused = await call(other, tool, {
  inputResponses: { step2: { action: 'accept', content: { color: 'blue' } } },
  requestState: r2.result.requestState,
});
assert.equal(refused.error?.code, -32602, JSON.stringify(refused));
assert.equal(refused.error?.message, 'Invalid or expired requestState');
console.log('multiprocess: 3 rounds on 2 processes completed; a foreign key refused the state');

// What the application's web page does when the user has signed in: mark the interaction complete
// where RedisCompletionStore looks (SET <prefix><id> 1 PX <ms>), as a RESP command.
function redisSet(key, ms) {
  const arg = (a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`;
  const command = `*5\r\n${arg('SET')}${arg(key)}${arg('1')}${arg('PX')}${arg(String(ms))}`;
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(redisPort), '127.0.0.1', () => socket.write(command));
    socket.setTimeout(10000, () => socket.destroy(new Error('redis: no answer in 10 s')));
    socket.once('data', (d) => {
      socket.end();
      d.toString().startsWith('+OK') ? resolve() : reject(new Error(`redis: ${d}`));
    });
    socket.once('error', reject);
  });
}

const u1 = await call(balanced, 'sign_in');
assert.equal(u1.result.resultType, 'input_required', JSON.stringify(u1));
const [[key, ask]] = Object.entries(u1.result.inputRequests);
assert.equal(ask.method, 'elicitation/create');
assert.equal(ask.params.mode, 'url');
assert.equal(ask.params.elicitationId, undefined, '2026-07-28 URL mode has no elicitationId');
const id = new URL(ask.params.url).searchParams.get('interaction');
assert.match(id, /^[0-9a-f]{32}$/);
// The user consented but has not finished: asked again, same URL.
const u2 = await call(balanced, 'sign_in', { inputResponses: { [key]: { action: 'accept' } }, requestState: u1.result.requestState });
assert.equal(u2.result.resultType, 'input_required', JSON.stringify(u2));
assert.equal(u2.result.inputRequests[key].params.url, ask.params.url);
assert.match(u2.result.inputRequests[key].params.message, /not been completed yet/);
// The page marks it complete; the retry lands on the other process, which sees it in Redis.
await redisSet(`elicitgen:completion:${id}`, 60000);
const u3 = await call(balanced, 'sign_in', { inputResponses: { [key]: { action: 'accept' } }, requestState: u2.result.requestState });
assert.equal(u3.result.resultType, 'complete', JSON.stringify(u3));
assert.equal(u3.result.content[0].text, `signed in: ${id}`);
const urlTitles = [u1, u2, u3].map(served);
console.log('URL-mode rounds served by:', urlTitles.join(' | '));
assert.notEqual(urlTitles[1], urlTitles[2], 'the completed retry ran on the other process than the pending one');
console.log('multiprocess: a URL-mode flow completed through the Redis store across processes');

// --- The api_key tool: its browser form page submitted to the other process ---------------------
const FETCH_MS = 60_000; // bounds each HTTP exchange: only a hang reaches it
const k1 = await call(balanced, 'api_key');
assert.equal(k1.result.resultType, 'input_required', JSON.stringify(k1));
const formAsk = k1.result.inputRequests['elicitation-1'];
assert.equal(formAsk?.params?.mode, 'url', JSON.stringify(k1.result.inputRequests));
const pageUrl = new URL(formAsk.params.url);
assert.match(pageUrl.pathname, /^\/forms\/[A-Za-z0-9_-]{16,128}$/);
const opener = served(k1);
assert.ok(/\((A|B)\)/.test(opener), `served by A or B: ${opener}`);
const openerUrl = new URL(opener.includes('(A)') ? urlA : urlB);
const otherUrl = new URL(opener.includes('(A)') ? urlB : urlA);
assert.equal(pageUrl.origin, publicOrigin, 'the page URL is under the public origin (nginx), whoever opened it');
const onOther = new URL(pageUrl.pathname, otherUrl.origin).href;
const onOpener = new URL(pageUrl.pathname, openerUrl.origin).href;
const onForeign = new URL(pageUrl.pathname, new URL(other).origin).href;

const form = await fetch(onOther, { signal: AbortSignal.timeout(FETCH_MS) });
const html = await form.text();
assert.equal(form.status, 200, `the page on the other process: ${form.status} ${html}`);
const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
assert.ok(csrf, 'the page has its CSRF token');
const secret = 'sk-multiprocess-0123456789abcd'; // 30 characters
const submit = (url) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf, action: 'accept', service: 'openai', api_key: secret }).toString(),
    signal: AbortSignal.timeout(FETCH_MS),
  });
const thanks = await submit(onOther);
assert.equal(thanks.status, 200, `submitted on the other process: ${await thanks.text()}`);
assert.equal((await submit(onOpener)).status, 410, 'single use: the opener refuses a second submission');
assert.equal((await submit(onOther)).status, 410, 'single use: so does the other process');
const foreign = await fetch(onForeign, { signal: AbortSignal.timeout(FETCH_MS) });
assert.equal(foreign.status, 404, 'a process with another key does not know the page');

const k2 = await call(balanced, 'api_key', {
  inputResponses: { 'elicitation-1': { action: 'accept' } },
  requestState: k1.result.requestState,
});
assert.equal(k2.result.resultType ?? 'complete', 'complete', JSON.stringify(k2));
assert.equal(k2.result.content[0].text, 'connected openai with a key of 30 characters');
assert.ok(!JSON.stringify(k2).includes(secret), 'the key never reaches the MCP client');
console.log(`api_key: opened by ${opener}, submitted on the other process, result served by ${served(k2)}`);
console.log('multiprocess: a browser form page answered on another process than the call, through Redis');
