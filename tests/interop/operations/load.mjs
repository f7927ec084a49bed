// drain.sh's steady load: `clients` concurrent clients, each looping over tools/call of the form tool
// (mcp.mjs FORM_TOOL) through nginx: input_required, then the retry with the answer (a name unique to
// the call) and the same requestState, whose result must echo that name. A request fails on any
// non-200, network error, timeout, missing JSON-RPC response, JSON-RPC error or wrong result; a failure
// is printed at once on stderr with its time (epoch ms, so drain.sh can place it against its SIGTERM),
// the client, the round and what came back, and never retried. Runs until `stopFile` exists (each
// client finishes the call it is in), or `maxSeconds` at most. Every 100 ms writes "sent failed
// completed" to `statusFile` (replaced atomically); at the end prints one JSON summary line on stdout.
// Usage: node load.mjs <url> <clients> <statusFile> <stopFile> <maxSeconds>
import fs from 'node:fs';

import { FORM_TOOL, answer, callTool, expectedText, show } from './mcp.mjs';

const [url, clientsArg, statusFile, stopFile, maxArg] = process.argv.slice(2);
const clients = Number(clientsArg);
const maxSeconds = Number(maxArg);
if (!url || !(clients > 0) || !statusFile || !stopFile || !(maxSeconds > 0)) {
  console.error('usage: node load.mjs <url> <clients> <statusFile> <stopFile> <maxSeconds>');
  process.exit(2);
}

const started = Date.now();
const stats = { sent: 0, failed: 0, completed: 0, maxLatencyMs: 0, failures: [] };
let stopping = null; // 'stop file' or 'time cap'

function writeStatus() {
  fs.writeFileSync(`${statusFile}.tmp`, `${stats.sent} ${stats.failed} ${stats.completed}\n`);
  fs.renameSync(`${statusFile}.tmp`, statusFile);
}
const ticker = setInterval(() => {
  writeStatus();
  if (!stopping && fs.existsSync(stopFile)) stopping = 'stop file';
  if (!stopping && Date.now() - started > maxSeconds * 1000) stopping = 'time cap';
}, 100);

function failure(client, round, what) {
  stats.failed++;
  const at = Date.now();
  stats.failures.push({ at, client, round, what });
  console.error(`load: FAILED at ${at} (+${at - started} ms) client ${client} ${round}: ${what}`);
}

// One request; the response, or undefined after counting a failure.
async function send(client, round, check, ...args) {
  stats.sent++;
  const t0 = Date.now();
  let r;
  try {
    r = await callTool(url, ...args);
  } catch (e) {
    failure(client, round, `network error after ${Date.now() - t0} ms: ${e.name} ${e.message} (cause: ${e.cause?.code ?? e.cause?.message ?? 'none'})`);
    return undefined;
  }
  stats.maxLatencyMs = Math.max(stats.maxLatencyMs, Date.now() - t0);
  const problem = r.status !== 200 ? 'not 200' : r.message === undefined ? 'no JSON-RPC response' : r.message.error ? 'JSON-RPC error' : check(r.message.result);
  if (problem) {
    failure(client, round, `${problem} after ${Date.now() - t0} ms: ${show(r)}`);
    return undefined;
  }
  return r.message.result;
}

async function client(c) {
  for (let i = 0; !stopping; i++) {
    const name = `client${c}-call${i}`;
    const r1 = await send(c, `call ${i} round 1`, (res) =>
      res?.resultType !== 'input_required' || Object.keys(res.inputRequests ?? {}).length !== 1 || !res.requestState
        ? 'not an input_required result with one question'
        : null, FORM_TOOL);
    if (!r1) continue;
    const key = Object.keys(r1.inputRequests)[0];
    const r2 = await send(c, `call ${i} round 2`, (res) =>
      (res?.resultType ?? 'complete') !== 'complete' || res.isError || res.content?.[0]?.text !== expectedText(name)
        ? 'not the expected result'
        : null, FORM_TOOL, {}, { inputResponses: answer(key, name), requestState: r1.requestState });
    if (r2) stats.completed++;
  }
}

await Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
clearInterval(ticker);
writeStatus();
console.log(JSON.stringify({ ...stats, stoppedBy: stopping, seconds: (Date.now() - started) / 1000 }));
