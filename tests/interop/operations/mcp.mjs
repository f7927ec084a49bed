// One MCP 2026-07-28 request over Streamable HTTP with fetch() (no npm packages), shared by the
// operations tests: the request's _meta (protocol version, client info and capabilities), the
// Mcp-Method and Mcp-Name headers, and the JSON-RPC message read from a JSON body or from the SSE
// data line that holds it (postRpc). Never retries: what the server (or nginx) answered is what the
// test sees.

import { postRpc } from '../multiprocess/rpc.mjs';

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

// POSTs one request; resolves to { status, headers, message, text } (../multiprocess/rpc.mjs).
export function rpc(url, method, params, name, timeoutMs = 30_000) {
  const body = { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta } };
  return postRpc(url, body, name, timeoutMs);
}

// tools/call of `tool`; `extra` adds params (inputResponses, requestState).
export const callTool = (url, tool, args = {}, extra = {}, timeoutMs) =>
  rpc(url, 'tools/call', { name: tool, arguments: args, ...extra }, tool, timeoutMs);

// The answer to the form tool's question, as the retry carries it.
export const answer = (key, name) => ({ [key]: { action: 'accept', content: { name } } });

// Describes a response for a failure message: status, and the body (shortened).
export const show = (r) => `HTTP ${r.status}: ${r.text.length > 600 ? r.text.slice(0, 600) + '...' : r.text}`;
