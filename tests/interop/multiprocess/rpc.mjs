// One 2026-07-28 JSON-RPC request over Streamable HTTP, shared by client.mjs and tasks.mjs: the
// request's _meta, the Mcp-Method and Mcp-Name headers, and the response read from a JSON body or
// from the SSE data line that holds it.
import assert from 'node:assert/strict';

// A poster for one client: `meta` goes in every request's params._meta; ids count from 1.
export function rpcClient(meta) {
  let nextId = 1;
  return async function rpc(url, method, params, name) {
    const body = { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta } };
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        'mcp-name': name,
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    const line = text.trim().startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data: {'))?.slice(6);
    assert.ok(line, `no JSON-RPC response in HTTP ${res.status}: ${text}`);
    return JSON.parse(line);
  };
}

// tasks/get (with `rpc`, a poster of rpcClient) through `url` until the task's status is `status`,
// failing when it ends otherwise; bounded in count and time (60 s). The last tasks/get's response.
export async function taskUntil(rpc, url, taskId, status) {
  const end = Date.now() + 60_000;
  let last;
  for (let i = 0; i < 6000 && Date.now() < end; ++i) {
    last = await rpc(url, 'tasks/get', { taskId }, taskId);
    assert.ok(last.result, `tasks/get failed: ${JSON.stringify(last)}`);
    if (last.result.status === status) return last;
    assert.ok(!['completed', 'failed', 'cancelled'].includes(last.result.status),
      `task ${taskId} ended ${last.result.status}, not ${status}: ${JSON.stringify(last.result)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`task ${taskId} never reached ${status}; last: ${JSON.stringify(last)}`);
}
