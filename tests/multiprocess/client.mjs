// The client side of run.sh: a three-round tool call through nginx (round robin over two
// processes), checking that the rounds were served by both and that the flow completed; then the
// second round's state brought to a process with another key: refused.
import assert from 'node:assert/strict';

const [balanced, other] = process.argv.slice(2);
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'multiprocess-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};
let nextId = 1;

async function call(url, name, extra = {}) {
  const body = { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: {}, _meta: meta, ...extra } };
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  // JSON, or SSE whose data line holds the response.
  const line = text.trim().startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data: {'))?.slice(6);
  assert.ok(line, `no JSON-RPC response in HTTP ${res.status}: ${text}`);
  return JSON.parse(line);
}

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
