// End-to-end: the official MCP TypeScript SDK client talks to the elicitgen sample server, declares
// elicitation, answers each elicitation/create as a user would, and checks the tool results.
// Over stdio (ELICITGEN_STDIO_SERVER names the binary, spawned per test) or over Streamable HTTP
// (ELICITGEN_HTTP_URL names a running server's endpoint).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  ElicitationCompleteNotificationSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';

const serverCommand = process.env.ELICITGEN_STDIO_SERVER;
const httpUrl = process.env.ELICITGEN_HTTP_URL;
assert.ok(serverCommand || httpUrl, 'set ELICITGEN_STDIO_SERVER or ELICITGEN_HTTP_URL');

async function connect(capabilities, answer) {
  const client = new Client({ name: 'elicitgen-e2e', version: '1.0.0' }, { capabilities });
  const seen = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      seen.push(request.params);
      return answer(request.params);
    });
  }
  const completions = [];
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => completions.push(n.params));
  const transport = httpUrl
    ? new StreamableHTTPClientTransport(new URL(httpUrl))
    : new StdioClientTransport({ command: serverCommand, args: [], stderr: 'ignore' });
  await client.connect(transport);
  return { client, seen, completions };
}

async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  return { text: result.content.map((c) => c.text).join('\n'), isError: result.isError === true };
}

const FORM = { elicitation: {} };
const FORM_AND_URL = { elicitation: { form: {}, url: {} } };

test('initialize and tools/list', async () => {
  const { client } = await connect(FORM, null);
  try {
    assert.equal(client.getServerVersion().name, 'elicitgen-sample-server');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const n of ['contact_information', 'sep1330_enums', 'sep1034_defaults', 'connect_account', 'test_elicitation']) {
      assert.ok(names.includes(n), `missing tool ${n}`);
    }
    await client.ping();
  } finally {
    await client.close();
  }
});

test('accept: typed content comes back', async () => {
  const { client, seen } = await connect(FORM, () => ({
    action: 'accept',
    content: { name: 'Monalisa Octocat', email: 'octocat@github.com', age: 30 },
  }));
  try {
    const r = await call(client, 'contact_information');
    assert.equal(r.text, 'accept: {"age":30.0,"email":"octocat@github.com","name":"Monalisa Octocat"}');
    assert.equal(seen.length, 1);
    assert.equal(seen[0].mode, 'form');
    assert.equal(seen[0].message, 'Please provide your contact information');
    assert.deepEqual(seen[0].requestedSchema.required, ['name', 'email']);
    assert.deepEqual(Object.keys(seen[0].requestedSchema.properties), ['name', 'email', 'age']);  // form order kept
    assert.equal(seen[0].requestedSchema.properties.email.format, 'email');
  } finally {
    await client.close();
  }
});

test('decline and cancel are told apart', async () => {
  for (const action of ['decline', 'cancel']) {
    const { client } = await connect(FORM, () => ({ action }));
    try {
      assert.equal((await call(client, 'github_username')).text, action);
    } finally {
      await client.close();
    }
  }
});

test('invalid content is reported with every error', async () => {
  const { client } = await connect(FORM, () => ({
    action: 'accept',
    content: { name: 'Monalisa', email: 'octocat at github', age: 17 },
  }));
  try {
    const r = await call(client, 'contact_information');
    assert.equal(r.isError, true);
    assert.equal(
      r.text,
      'invalid: content does not match the requested schema\n/email: must be an email address (RFC 5321)\n/age: must be >= 18',
    );
  } finally {
    await client.close();
  }
});

test('all five SEP-1330 enum variants and SEP-1034 defaults', async () => {
  const { client, seen } = await connect(FORM, (params) => {
    if (params.message.startsWith('Choose options')) {
      return {
        action: 'accept',
        content: {
          untitledSingle: 'option1',
          titledSingle: 'value1',
          legacyEnum: 'opt1',
          untitledMulti: ['option1', 'option2'],
          titledMulti: ['value1', 'value2'],
        },
      };
    }
    return { action: 'accept', content: {} };
  });
  try {
    assert.equal(
      (await call(client, 'sep1330_enums')).text,
      'accept: {"legacyEnum":"opt1","titledMulti":["value1","value2"],"titledSingle":"value1","untitledMulti":["option1","option2"],"untitledSingle":"option1"}',
    );
    const props = seen[0].requestedSchema.properties;
    assert.deepEqual(props.legacyEnum.enumNames, ['Option One', 'Option Two', 'Option Three']);
    assert.equal(props.titledMulti.items.anyOf[1].title, 'Second Choice');
    assert.equal(
      (await call(client, 'sep1034_defaults')).text,
      'accept: {"age":30,"name":"John Doe","score":95.5,"status":"active","verified":true}',
    );
    assert.equal(seen[1].requestedSchema.properties.score.default, 95.5);
  } finally {
    await client.close();
  }
});

test('the conformance tool test_elicitation', async () => {
  const { client, seen } = await connect(FORM, () => ({
    action: 'accept',
    content: { username: 'testuser', email: 'test@example.com' },
  }));
  try {
    const r = await call(client, 'test_elicitation', { message: 'Please provide your information' });
    assert.equal(r.text, 'User response: <action: accept, content: {"email":"test@example.com","username":"testuser"}>');
    assert.equal(seen[0].message, 'Please provide your information');
  } finally {
    await client.close();
  }
});

test('URL mode: accept, then the completion notification', async () => {
  const { client, seen, completions } = await connect(FORM_AND_URL, () => ({ action: 'accept' }));
  try {
    const r = await call(client, 'connect_account');
    assert.equal(seen[0].mode, 'url');
    assert.equal(seen[0].url, 'https://mcp.example.com/connect');
    assert.match(seen[0].elicitationId, /^[0-9a-f]{32}$/);
    assert.equal(r.text, `url accepted: ${seen[0].elicitationId}`);
    for (let i = 0; i < 50 && completions.length === 0; ++i) await new Promise((ok) => setTimeout(ok, 20));
    assert.deepEqual(completions, [{ elicitationId: seen[0].elicitationId }]);
  } finally {
    await client.close();
  }
});

test('URLElicitationRequiredError reaches the client as -32042 with its elicitations', async () => {
  const { client } = await connect(FORM_AND_URL, () => ({ action: 'accept' }));
  try {
    await assert.rejects(call(client, 'read_private_files'), (e) => {
      assert.ok(e instanceof McpError);
      assert.equal(e.code, -32042);
      const [first] = e.data.elicitations;
      assert.equal(first.mode, 'url');
      assert.equal(first.url, 'https://mcp.example.com/authorize');
      assert.match(first.elicitationId, /^[0-9a-f]{32}$/);
      return true;
    });
  } finally {
    await client.close();
  }
});

test('a client without the elicitation capability gets nothing sent', async () => {
  const { client, seen } = await connect({}, null);
  try {
    assert.equal((await call(client, 'contact_information')).text, 'unsupported: the client cannot show forms');
    assert.equal(seen.length, 0);
  } finally {
    await client.close();
  }
});

test('a form-only client is never sent URL mode', async () => {
  const { client, seen } = await connect(FORM, () => ({ action: 'accept' }));
  try {
    assert.equal((await call(client, 'connect_account')).text, 'url unsupported');
    assert.equal(seen.length, 0);
  } finally {
    await client.close();
  }
});
