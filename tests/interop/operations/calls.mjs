// prometheus.sh's client: `count` tools/call of the form tool (mcp.mjs FORM_TOOL), each answered over
// two rounds: input_required (one form question and a requestState), then the retry carrying the
// answer and the same requestState, which completes with the answer echoed. With --tamper, the first
// call's retry is first sent with its requestState altered (one character): the server must refuse it
// (JSON-RPC -32602, "Invalid or expired requestState"), and the call then completes with the real one.
// So the server counts `count` input_required and `count` result outcomes, and one refused state.
// Usage: node calls.mjs <url> <count> [--tamper]
import assert from 'node:assert/strict';

import { FORM_TOOL, answer, callTool, expectedText, show } from './mcp.mjs';

const [url, countArg, flag] = process.argv.slice(2);
const count = Number(countArg);
assert.ok(url && Number.isInteger(count) && count > 0, 'usage: node calls.mjs <url> <count> [--tamper]');
const tamper = flag === '--tamper';

// One character of the sealed state changed to another of the base64url alphabet.
function tampered(state) {
  const i = Math.floor(state.length / 2);
  return state.slice(0, i) + (state[i] === 'A' ? 'B' : 'A') + state.slice(i + 1);
}

for (let i = 0; i < count; i++) {
  const name = `user-${process.pid}-${i}`;
  const r1 = await callTool(url, FORM_TOOL);
  assert.equal(r1.status, 200, show(r1));
  assert.equal(r1.message?.result?.resultType, 'input_required', show(r1));
  const keys = Object.keys(r1.message.result.inputRequests ?? {});
  assert.equal(keys.length, 1, show(r1));
  assert.equal(r1.message.result.inputRequests[keys[0]].params?.mode, 'form', show(r1));
  const state = r1.message.result.requestState;
  assert.ok(typeof state === 'string' && state.length > 0, show(r1));
  if (tamper && i === 0) {
    const bad = await callTool(url, FORM_TOOL, {}, { inputResponses: answer(keys[0], name), requestState: tampered(state) });
    assert.equal(bad.status, 200, show(bad));
    assert.equal(bad.message?.error?.code, -32602, show(bad));
    assert.equal(bad.message?.error?.message, 'Invalid or expired requestState', show(bad));
    console.log(`tampered requestState refused: ${JSON.stringify(bad.message.error)}`);
  }
  const r2 = await callTool(url, FORM_TOOL, {}, { inputResponses: answer(keys[0], name), requestState: state });
  assert.equal(r2.status, 200, show(r2));
  assert.equal(r2.message?.result?.resultType ?? 'complete', 'complete', show(r2));
  assert.equal(r2.message?.result?.isError ?? false, false, show(r2));
  assert.equal(r2.message?.result?.content?.[0]?.text, expectedText(name), show(r2));
}
console.log(`${count} ${FORM_TOOL} calls completed over two rounds each${tamper ? ' (and one tampered retry refused)' : ''}`);
