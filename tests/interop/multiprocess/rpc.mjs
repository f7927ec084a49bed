// One 2026-07-28 JSON-RPC request over Streamable HTTP, shared by client.mjs, tasks.mjs and the
// operations scripts: the request's _meta, the Mcp-Method and Mcp-Name headers, and the response
// read from a JSON body or from the SSE data line that holds it.
import assert from 'node:assert/strict';

// POSTs one 2026-07-28 request `body` (with its Mcp-Method and, when given, Mcp-Name headers);
// resolves to { status, headers, message, text }: message is the JSON-RPC response read from a JSON
// body or from the SSE data line that holds it, undefined when there is none. Never retries; rejects
// on a network error or, when `timeoutMs` is given, after it.
export async function postRpc(url, body, name, timeoutMs) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': body.method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify(body),
    ...(timeoutMs ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
  });
  const text = await res.text();
  const line = text.trim().startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data: {'))?.slice(6);
  let message;
  try {
    message = line ? JSON.parse(line) : undefined;
  } catch {
    message = undefined;
  }
  return { status: res.status, headers: res.headers, message, text };
}

// A poster for one client: `meta` goes in every request's params._meta; ids count from 1. Resolves to
// the JSON-RPC response, failing when the reply holds none.
export function rpcClient(meta) {
  let nextId = 1;
  return async function rpc(url, method, params, name) {
    const body = { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta } };
    const r = await postRpc(url, body, name);
    assert.ok(r.message, `no JSON-RPC response in HTTP ${r.status}: ${r.text}`);
    return r.message;
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
