// Tasks waiting for a person survive a drain: tasks (io.modelcontextprotocol/tasks) kept in Redis
// (--tasks-in-redis) and made through process A wait in input_required, holding no run; after A has
// drained and exited, each is answered through nginx (so by B) and completes. And a task whose run
// is going on in A when it drains (slow_compute as a task): A releases the run, and the first
// tasks/get that reaches B runs it again there, at once (not after the run's lease).
// Usage: node tasks.mjs make <A /mcp> <count> <ids file>       (prints "made N")
//        node tasks.mjs finish <nginx /mcp> <ids file>          (prints "completed N")
//        node tasks.mjs start <A /mcp> <seconds> <id file>      (prints "running <id>")
//        node tasks.mjs follow <nginx /mcp> <seconds> <id file> (prints "completed <id>")
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';

import { rpcClient, taskUntil } from '../multiprocess/rpc.mjs';

const extension = 'io.modelcontextprotocol/tasks';
const rpc = rpcClient({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'operations-tasks', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, extensions: { [extension]: {} } },
});
const until = (url, taskId, status) => taskUntil(rpc, url, taskId, status);

const [mode, url, ...rest] = process.argv.slice(2);
if (mode === 'make') {
  const [count, file] = rest;
  const tasks = [];
  for (let i = 0; i < Number(count); ++i) {
    const filename = `drain-${i}.txt`;
    const made = await rpc(url, 'tools/call', { name: 'confirm_delete', arguments: { filename } }, 'confirm_delete');
    assert.equal(made.result?.resultType, 'task', JSON.stringify(made));
    const asked = await until(url, made.result.taskId, 'input_required');
    tasks.push({ id: made.result.taskId, filename, key: Object.keys(asked.result.inputRequests)[0] });
  }
  writeFileSync(file, JSON.stringify(tasks));
  console.log(`made ${tasks.length}`);
} else if (mode === 'finish') {
  const [file] = rest;
  const tasks = JSON.parse(readFileSync(file, 'utf8'));
  let completed = 0;
  for (const t of tasks) {
    const ack = await rpc(url, 'tasks/update',
      { taskId: t.id, inputResponses: { [t.key]: { action: 'accept', content: { confirm: true } } } }, t.id);
    assert.ok(ack.result, JSON.stringify(ack));
    const done = await until(url, t.id, 'completed');
    assert.equal(done.result.result.content[0].text, `deleted ${t.filename}`);
    ++completed;
  }
  console.log(`completed ${completed}`);
} else if (mode === 'start') {
  const [seconds, file] = rest;
  const made = await rpc(url, 'tools/call', { name: 'slow_compute', arguments: { seconds: Number(seconds), label: 'drain-run' } },
    'slow_compute');
  assert.equal(made.result?.resultType, 'task', JSON.stringify(made));
  await until(url, made.result.taskId, 'working');
  writeFileSync(file, made.result.taskId);
  console.log(`running ${made.result.taskId}`);
} else if (mode === 'follow') {
  const [seconds, file] = rest;
  const id = readFileSync(file, 'utf8');
  const done = await until(url, id, 'completed');
  assert.equal(done.result.result.content[0].text, `computed drain-run in ${Number(seconds).toFixed(6)} s`);
  console.log(`completed ${id}`);
} else {
  console.error('usage: node tasks.mjs make|finish|start|follow ... (see the comment at the top)');
  process.exit(2);
}
