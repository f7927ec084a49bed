// What the browser runs share as the MCP client: plain fetch() JSON-RPC over Streamable HTTP, at
// 2026-07-28 (one stateless POST per request) and 2025-11-25 (a session, SSE streams), with an
// optional bearer token. Every wait is bounded: each fetch FETCH_MS, each SSE message SSE_MS.
import assert from 'node:assert/strict';

export const FETCH_MS = 45_000; // above the server's 20 s retry wait for the page
export const SSE_MS = 45_000; // one message on a 2025-11-25 stream
let nextId = 1;
export const newId = () => nextId++;

// --- MCP 2026-07-28: one stateless POST per request ---------------------------------------------
export const meta2026 = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'elicitgen-browser-test', version: '1' },
};

// The JSON-RPC response of a POST answered as JSON or as an SSE stream (the last message with an id).
export async function readResponse(res) {
  const text = await res.text();
  if (text.trim().startsWith('{')) return JSON.parse(text);
  const messages = text
    .split('\n')
    .filter((l) => l.startsWith('data:') && l.slice(5).trim() !== '') // not a priming event's empty data
    .map((l) => JSON.parse(l.slice(5)));
  const response = messages.reverse().find((m) => 'result' in m || 'error' in m);
  assert.ok(response, `no JSON-RPC response in HTTP ${res.status}: ${text}`);
  return response;
}

// `authorization`: an Authorization header value (a bearer token), or none.
export async function callTool2026(url, name, extra = {}, { authorization } = {}) {
  const body = { jsonrpc: '2.0', id: newId(), method: 'tools/call', params: { name, arguments: {}, _meta: meta2026, ...extra } };
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': name,
      ...(authorization ? { Authorization: authorization } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(FETCH_MS),
  });
  const message = await readResponse(res);
  assert.equal(message.id, body.id);
  assert.ok(message.result, `tools/call ${name}: ${JSON.stringify(message)}`);
  return message.result;
}


// --- MCP 2025-11-25: a session, and the tool call's SSE stream -----------------------------------
export class Session2025 {
  constructor(url, { authorization } = {}) {
    this.url = url;
    this.authorization = authorization;
    this.id = undefined;
  }
  headers() {
    const h = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    if (this.id) {
      h['Mcp-Session-Id'] = this.id;
      h['MCP-Protocol-Version'] = '2025-11-25';
    }
    if (this.authorization) h.Authorization = this.authorization;
    return h;
  }
  post(message, signal = AbortSignal.timeout(FETCH_MS)) {
    return fetch(this.url, { method: 'POST', headers: this.headers(), body: JSON.stringify(message), signal });
  }
  async open() {
    const res = await this.post({
      jsonrpc: '2.0',
      id: newId(),
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: { url: {} } },
        clientInfo: { name: 'elicitgen-browser-test', version: '1' },
      },
    });
    assert.equal(res.status, 200);
    this.id = res.headers.get('mcp-session-id');
    assert.ok(this.id, 'initialize answered with an Mcp-Session-Id');
    const init = await readResponse(res);
    assert.equal(init.result?.protocolVersion, '2025-11-25', JSON.stringify(init));
    const initialized = await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.equal(initialized.status, 202);
  }
  // The session's own stream (GET): messages that belong to no request, such as
  // notifications/elicitation/complete (docs/http.md).
  async listen(signal) {
    const res = await fetch(this.url, {
      method: 'GET',
      headers: {
        Accept: 'text/event-stream',
        'Mcp-Session-Id': this.id,
        'MCP-Protocol-Version': '2025-11-25',
        ...(this.authorization ? { Authorization: this.authorization } : {}),
      },
      signal,
    });
    assert.equal(res.status, 200, 'GET opens the session stream');
    return new SseReader(res);
  }
  async close() {
    if (!this.id) return;
    await fetch(this.url, { method: 'DELETE', headers: this.headers(), signal: AbortSignal.timeout(FETCH_MS) });
  }
}

// The messages of an SSE response, one at a time, each within SSE_MS.
export class SseReader {
  constructor(res) {
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    this.reader = res.body.getReader();
    this.decoder = new TextDecoder();
    this.buffer = '';
    this.queue = [];
  }
  async next() {
    const deadline = Date.now() + SSE_MS;
    while (this.queue.length === 0) {
      const left = deadline - Date.now();
      let timer;
      const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no SSE message within ${SSE_MS / 1000} s`)), Math.max(left, 0));
      });
      const { value, done } = await Promise.race([this.reader.read(), timeout]).finally(() => clearTimeout(timer));
      if (done) throw new Error('the SSE stream ended');
      this.buffer += this.decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      let end;
      while ((end = this.buffer.indexOf('\n\n')) >= 0) {
        const event = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const data = event
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).replace(/^ /, ''))
          .join('\n');
        if (data) this.queue.push(JSON.parse(data));
      }
    }
    return this.queue.shift();
  }
  cancel() {
    return this.reader.cancel().catch(() => {});
  }
}
