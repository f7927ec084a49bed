// One MCP 2026-07-28 request over Streamable HTTP with fetch() (no npm packages), shared by the
// operations tests: the request's _meta (protocol version, client info and capabilities), the
// Mcp-Method and Mcp-Name headers, and the JSON-RPC message read from a JSON body or from the SSE
// data line that holds it. Never retries: what the server (or nginx) answered is what the test sees.

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'operations-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

// The form tool the tests call: github_username (samples/sample_tools.cpp) asks one form question,
// {"name": string}, and answers "accept: {"name":"..."}" on the retry that carries the answer.
export const FORM_TOOL = 'github_username';
export const expectedText = (name) => `accept: ${JSON.stringify({ name })}`;

let nextId = 1;

// POSTs one request; resolves to { status, headers, message } (message: the JSON-RPC response, or
// undefined when the body held none), or rejects on a network error or after `timeoutMs`.
export async function rpc(url, method, params, name, timeoutMs = 30_000) {
  const body = { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta } };
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
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

// tools/call of `tool`; `extra` adds params (inputResponses, requestState).
export const callTool = (url, tool, args = {}, extra = {}, timeoutMs) =>
  rpc(url, 'tools/call', { name: tool, arguments: args, ...extra }, tool, timeoutMs);

// The answer to the form tool's question, as the retry carries it.
export const answer = (key, name) => ({ [key]: { action: 'accept', content: { name } } });

// Describes a response for a failure message: status, and the body (shortened).
export const show = (r) => `HTTP ${r.status}: ${r.text.length > 600 ? r.text.slice(0, 600) + '...' : r.text}`;
