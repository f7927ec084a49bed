// End-to-end, modern era: the official MCP TypeScript SDK 2.x client (@modelcontextprotocol/client),
// pinned to protocol revision 2026-07-28 (stateless: server/discover instead of initialize, per-request
// _meta, no session), talks to the elicitgen Streamable HTTP sample server (ELICITGEN_HTTP_URL names a
// running server's endpoint). Elicitation goes through multi round-trip requests (MRTR): the server
// answers tools/call with resultType "input_required" and inputRequests; the SDK's input-required driver
// (ClientOptions.inputRequired, autoFulfill on by default) hands each embedded elicitation/create to the
// handler registered with client.setRequestHandler('elicitation/create', ...), then retries the same
// tools/call on a fresh request id with inputResponses and the echoed requestState. callTool() returns
// only the final, complete result. Every POST is recorded so the tests also check the wire itself.
// The tools and the exact texts they answer are in README.md (plan_delivery does not exist yet).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const httpUrl = process.env.ELICITGEN_HTTP_URL;
assert.ok(httpUrl, 'set ELICITGEN_HTTP_URL');

const MODERN = '2026-07-28';
const FORM = { elicitation: {} };  // an empty elicitation object means form mode only
const FORM_AND_URL = { elicitation: { form: {}, url: {} } };

// A fetch that records every POST: its JSON-RPC body, the request headers, the response status and
// session header (there must be none in this era).
function recordingFetch(posts) {
  return async (url, init) => {
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const response = await fetch(url, init);
    posts.push({ body, headers, status: response.status, sessionId: response.headers.get('mcp-session-id') });
    return response;
  };
}

// A client pinned to 2026-07-28 (no fallback to initialize); `answer(params, round)` plays the user.
async function connect(capabilities, answer) {
  const client = new Client(
    { name: 'elicitgen-e2e-2026', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: { pin: MODERN } }, inputRequired: { autoFulfill: true, maxRounds: 10 } },
  );
  const seen = [];
  if (answer) {
    client.setRequestHandler('elicitation/create', async (request) => {
      seen.push(request.params);
      return answer(request.params, seen.length);
    });
  }
  const posts = [];
  await client.connect(new StreamableHTTPClientTransport(new URL(httpUrl), { fetch: recordingFetch(posts) }));
  assert.equal(client.getProtocolEra(), 'modern');
  assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
  return { client, seen, posts };
}

async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  return { text: result.content.map((c) => c.text).join('\n'), isError: result.isError === true, result };
}

// The tools/call POSTs for one tool, in order.
const toolCalls = (posts, name) =>
  posts.filter((p) => p.body?.method === 'tools/call' && p.body.params?.name === name).map((p) => p.body.params);

test('modern era: server/discover instead of initialize, per-request _meta, no session', async () => {
  const { client, posts } = await connect(FORM, null);
  try {
    assert.equal(client.getServerVersion()?.name, 'elicitgen-sample-server');
    assert.ok(client.getServerCapabilities()?.tools, 'the discover result declares tools');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const n of ['contact_information', 'github_username', 'connect_account']) {
      assert.ok(names.includes(n), `missing tool ${n}`);
    }
    assert.equal(posts[0].body.method, 'server/discover');
    assert.ok(!posts.some((p) => p.body?.method === 'initialize'), 'no initialize in this era');
    for (const p of posts) {
      assert.equal(p.headers.get('mcp-protocol-version'), MODERN);
      assert.equal(p.headers.get('mcp-method'), p.body.method);
      assert.equal(p.body.params._meta['io.modelcontextprotocol/protocolVersion'], MODERN);
      assert.equal(p.sessionId, null, 'no Mcp-Session-Id in this era');
      assert.equal(p.status, 200);
    }
  } finally {
    await client.close();
  }
});

test('accept: the answer comes back typed in the tool result, over one retry', async () => {
  const { client, seen, posts } = await connect(FORM, () => ({
    action: 'accept',
    content: { name: 'Monalisa Octocat', email: 'octocat@github.com', age: 30 },
  }));
  try {
    const r = await call(client, 'contact_information');
    assert.equal(r.isError, false);
    assert.equal(r.text, 'accept: {"age":30.0,"email":"octocat@github.com","name":"Monalisa Octocat"}');
    assert.equal(seen.length, 1);
    assert.equal(seen[0].mode, 'form');
    assert.equal(seen[0].message, 'Please provide your contact information');
    assert.deepEqual(seen[0].requestedSchema.required, ['name', 'email']);
    assert.deepEqual(Object.keys(seen[0].requestedSchema.properties), ['name', 'email', 'age']);  // form order kept
    assert.equal(seen[0].requestedSchema.properties.email.format, 'email');
    // The wire: the first call carries no answers, the retry carries exactly one, accepted.
    const calls = toolCalls(posts, 'contact_information');
    assert.equal(calls.length, 2);
    assert.equal(calls[0].inputResponses, undefined);
    const answers = Object.values(calls[1].inputResponses);
    assert.equal(answers.length, 1);
    assert.equal(answers[0].action, 'accept');
  } finally {
    await client.close();
  }
});

test('decline and cancel are told apart', async () => {
  for (const action of ['decline', 'cancel']) {
    const { client, seen } = await connect(FORM, () => ({ action }));
    try {
      const r = await call(client, 'github_username');
      assert.equal(r.text, action);
      assert.equal(r.isError, false);
      assert.equal(seen.length, 1, 'a declined or cancelled form is not asked again');
    } finally {
      await client.close();
    }
  }
});

test('an invalid answer is asked again with the reason in the message, then the corrected one is accepted', async () => {
  const { client, seen, posts } = await connect(FORM, (params, round) =>
    round === 1
      ? { action: 'accept', content: { name: 'Monalisa', email: 'octocat at github', age: 17 } }
      : { action: 'accept', content: { name: 'Monalisa', email: 'octocat@github.com', age: 18 } },
  );
  try {
    const r = await call(client, 'contact_information');
    assert.equal(seen.length, 2, 'the server asks again instead of failing the call');
    assert.equal(seen[0].message, 'Please provide your contact information');
    assert.match(seen[1].message, /Please provide your contact information/);
    assert.match(seen[1].message, /must be an email address \(RFC 5321\)/);
    assert.match(seen[1].message, /must be >= 18/);
    assert.deepEqual(seen[1].requestedSchema, seen[0].requestedSchema);
    assert.equal(r.isError, false);
    assert.equal(r.text, 'accept: {"age":18.0,"email":"octocat@github.com","name":"Monalisa"}');
    assert.equal(toolCalls(posts, 'contact_information').length, 3);
  } finally {
    await client.close();
  }
});

test('multi-round: two rounds of questions inside one tool call (plan_delivery)', async () => {
  const address = { recipient: 'Mona', street: '1 Main St', postalCode: '94107', country: 'US' };
  const window = { day: '2026-08-03', notBefore: '2026-08-03T09:00:00Z', weekendOk: false, attempts: 2 };
  const { client, seen, posts } = await connect(FORM, (params, round) => ({
    action: 'accept',
    content: round === 1 ? address : window,
  }));
  try {
    const r = await call(client, 'plan_delivery');
    assert.equal(seen.length, 2);
    assert.equal(seen[0].message, 'Where should we ship your order?');
    assert.deepEqual(seen[0].requestedSchema.required, ['recipient', 'street', 'postalCode']);
    assert.equal(seen[1].message, 'When should we deliver?');
    assert.deepEqual(seen[1].requestedSchema.required, ['day']);
    assert.equal(
      r.text,
      'accept: {"country":"US","postalCode":"94107","recipient":"Mona","street":"1 Main St"}' +
        ' / {"attempts":2,"day":"2026-08-03","notBefore":"2026-08-03T09:00:00Z","weekendOk":false}',
    );
    // Stateless: what round 1 answered reaches round 3 only through requestState.
    const calls = toolCalls(posts, 'plan_delivery');
    assert.equal(calls.length, 3);
    assert.equal(typeof calls[2].requestState, 'string');
  } finally {
    await client.close();
  }
});

test('URL mode: the page is offered, accept retries, no elicitationId in this era', async () => {
  const { client, seen } = await connect(FORM_AND_URL, () => ({ action: 'accept' }));
  try {
    const r = await call(client, 'connect_account');
    assert.equal(seen.length, 1);
    assert.equal(seen[0].mode, 'url');
    assert.equal(seen[0].url, 'https://mcp.example.com/connect');
    assert.equal(seen[0].message, 'Connect your Example Co account to continue.');
    assert.equal(seen[0].elicitationId, undefined);
    assert.equal(r.text, 'url accepted');
  } finally {
    await client.close();
  }
});

// A request that needs a capability the client did not declare: MissingRequiredClientCapabilityError
// (basic/index.md, "A server MUST NOT rely on capabilities the client has not declared").
async function assertMissingCapability(capabilities, tool, check) {
  const { client, seen } = await connect(capabilities, capabilities.elicitation ? () => ({ action: 'accept' }) : null);
  try {
    await assert.rejects(call(client, tool), (e) => {
      assert.equal(e.code, -32021, String(e));
      check(e.data.requiredCapabilities);
      return true;
    });
    assert.equal(seen.length, 0);
  } finally {
    await client.close();
  }
}

test('a client without the elicitation capability gets -32021 naming elicitation', async () => {
  await assertMissingCapability({}, 'contact_information', (required) =>
    assert.equal(typeof required.elicitation, 'object'),
  );
});

test('a form-only client is never sent URL mode: -32021 naming elicitation.url', async () => {
  await assertMissingCapability(FORM, 'connect_account', (required) =>
    assert.equal(typeof required.elicitation?.url, 'object'),
  );
});
