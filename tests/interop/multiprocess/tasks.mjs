// Tasks (io.modelcontextprotocol/tasks) across processes: the servers keep their tasks in one Redis
// (--tasks-in-redis, RedisTaskStore), sealed with their shared keys. A task made through process A
// is read, answered and cancelled through process B and through nginx (both processes answer for
// the same task); a process with other keys does not know it; a task whose process is killed while
// it works reads as failed once its lease lapsed, never working forever.
// Usage: node tasks.mjs <balanced /mcp> <A /mcp> <B /mcp> <C /mcp (other keys)> <D /mcp> <pid of D>
import assert from 'node:assert/strict';

import { rpcClient, taskUntil } from './rpc.mjs';

const [balanced, urlA, urlB, urlC, urlD, pidD] = process.argv.slice(2);
const extension = 'io.modelcontextprotocol/tasks';
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'multiprocess-tasks-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, extensions: { [extension]: {} } },
};
const rpc = rpcClient(meta);
const call = (url, name, args) => rpc(url, 'tools/call', { name, arguments: args }, name);
const get = (url, taskId) => rpc(url, 'tasks/get', { taskId }, taskId);
const served = (m) => m.result?._meta?.['io.modelcontextprotocol/serverInfo']?.title ?? '';

// tasks/get through `url` until the status is `status` (bounded: rpc.mjs).
const until = (url, taskId, status) => taskUntil(rpc, url, taskId, status);

// 1. confirm_delete made on A; read and answered on B; the result read on A and through nginx.
const made = await call(urlA, 'confirm_delete', { filename: 'notes.txt' });
assert.equal(made.result?.resultType, 'task', JSON.stringify(made));
assert.match(served(made), /\(A\)/);
const id = made.result.taskId;
const asked = await until(urlB, id, 'input_required');
assert.match(served(asked), /\(B\)/);
const keys = Object.keys(asked.result.inputRequests);
assert.equal(keys.length, 1);
const question = asked.result.inputRequests[keys[0]];
assert.equal(question.method, 'elicitation/create');
assert.equal(question.params.message, 'Delete notes.txt?');
assert.deepEqual(question.params.requestedSchema.required, ['confirm']);
assert.equal(question.params.requestedSchema.properties.confirm.type, 'boolean');
// Another key: the task is unknown there (-32602), as another principal's would be.
const unknown = await get(urlC, id);
assert.equal(unknown.error?.code, -32602, JSON.stringify(unknown));
const ack = await rpc(urlB, 'tasks/update',
  { taskId: id, inputResponses: { [keys[0]]: { action: 'accept', content: { confirm: true } } } }, id);
assert.ok(ack.result, JSON.stringify(ack));
const done = await until(urlA, id, 'completed');
assert.equal(done.result.result.content[0].text, 'deleted notes.txt');
const byProcess = new Set();
for (let i = 0; i < 4; ++i) {
  const r = await get(balanced, id);
  assert.equal(r.result.status, 'completed');
  assert.equal(r.result.result.content[0].text, 'deleted notes.txt');
  byProcess.add(served(r));
}
assert.equal(byProcess.size, 2, `nginx round robin: both processes answer for the task (${[...byProcess]})`);
console.log('confirm_delete: made on A, asked and answered on B, completed on A and through nginx:', [...byProcess].join(' | '));

// 2. slow_compute working on A, cancelled through B: cancelled everywhere, the handler told.
const slow = await call(urlA, 'slow_compute', { seconds: 600, label: 'long' });
const slowId = slow.result.taskId;
assert.equal((await get(urlB, slowId)).result.status, 'working');
const cancelled = await rpc(urlB, 'tasks/cancel', { taskId: slowId }, slowId);
assert.ok(cancelled.result, JSON.stringify(cancelled));
assert.equal((await until(urlA, slowId, 'cancelled')).result.status, 'cancelled');
// Idempotent on either process.
assert.ok((await rpc(urlA, 'tasks/cancel', { taskId: slowId }, slowId)).result);
console.log('slow_compute: working on A, cancelled through B');

// 3. A task working on D when D is killed: failed after D's lease (1 s) on B, never working forever.
const orphan = await call(urlD, 'slow_compute', { seconds: 600, label: 'orphan' });
const orphanId = orphan.result.taskId;
assert.equal((await get(urlB, orphanId)).result.status, 'working');
process.kill(Number(pidD), 'SIGKILL');
const lapsed = await until(urlB, orphanId, 'failed');
assert.equal(lapsed.result.error.code, -32603);
assert.equal(lapsed.result.statusMessage, 'the process running the task stopped (its lease lapsed)');
console.log('slow_compute on D, D killed: failed on B once its lease lapsed');
console.log('tasks across processes: all passed');
