// drain.sh's request in flight at SIGTERM: a 2026-07-28 tools/call of slow_compute (samples/
// task_fixtures.cpp: without the tasks extension declared, the call itself works `seconds` seconds,
// then answers "computed <label> in <seconds> s"), straight to one server (no nginx). Sent on a
// keep-alive connection that has already served a GET /healthz, so that when drain.sh sees `sentFile`
// (written once the request is on the wire) the server has accepted the connection and is reading
// it. Exits 0 when the answer is HTTP 200 with the expected result; prints what came back (status,
// Connection header, body, time) either way.
// Usage: node slow.mjs <url> <seconds> <sentFile>
import fs from 'node:fs';
import http from 'node:http';

const [url, secondsArg, sentFile] = process.argv.slice(2);
const seconds = Number(secondsArg);
const u = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function request(options, body, onSent) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, agent, timeout: 60_000, ...options }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 60 s')));
    req.on('error', reject);
    if (onSent) req.on('finish', onSent);
    req.end(body);
  });
}

const health = await request({ method: 'GET', path: '/healthz' });
if (health.status !== 200) {
  console.error(`slow: GET /healthz answered ${health.status}`);
  process.exit(1);
}
const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'slow_compute',
    arguments: { seconds, label: 'in-flight' },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'operations-test', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});
const t0 = Date.now();
let r;
try {
  r = await request(
    {
      method: 'POST',
      path: u.pathname,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'slow_compute',
      },
    },
    body,
    () => fs.writeFileSync(sentFile, `${Date.now()}\n`),
  );
} catch (e) {
  console.error(`slow: FAILED at ${Date.now()} after ${Date.now() - t0} ms: ${e.code ?? ''} ${e.message}`);
  process.exit(1);
}
const text = r.text.trim();
const line = text.startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data: {'))?.slice(6);
const result = line ? JSON.parse(line).result : undefined;
const expected = `computed in-flight in ${seconds.toFixed(6)} s`;
console.log(`slow: HTTP ${r.status} after ${Date.now() - t0} ms (Connection: ${r.headers.connection ?? '(none)'}): ${text}`);
if (r.status !== 200 || result?.content?.[0]?.text !== expected) {
  console.error(`slow: expected HTTP 200 with "${expected}"`);
  process.exit(1);
}
