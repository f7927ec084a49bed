// End-to-end, the server surface beyond tools (legacy era, 2025-11-25 sessions): the official MCP
// TypeScript SDK 1.x client reads the sample server's prompts, completions, resources (text, binary,
// templates, subscriptions and their updates), list changes, log messages and progress, as the sample
// fixtures serve them. Over stdio (ELICITGEN_STDIO_SERVER names the binary, spawned per test) or over Streamable
// HTTP (ELICITGEN_HTTP_URL names a running server's endpoint), as e2e.test.mjs.
//
// Every test records what reaches client.onerror and fails on any of it, with one exception, the
// SDK's own race (modelcontextprotocol/typescript-sdk#2580): a progress notification that arrives in
// the same read as the call's result is dispatched (as a microtask) after the result has removed the
// call's progress handler, and is reported as "Received a progress notification for an unknown
// token: <notification>" instead of reaching onprogress. The progress test counts those too.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  EmptyResultSchema,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

const serverCommand = process.env.ELICITGEN_STDIO_SERVER;
const httpUrl = process.env.ELICITGEN_HTTP_URL;
assert.ok(serverCommand || httpUrl, 'set ELICITGEN_STDIO_SERVER or ELICITGEN_HTTP_URL');

const WAIT_MS = 30_000;  // a bound for events that must come, never a measure of speed
const INVALID_PARAMS = -32602;
const UNKNOWN_PROGRESS_TOKEN = /^Received a progress notification for an unknown token: (.*)$/s;

// A client with a legacy session; records log messages, resources/updated notifications, every
// error the SDK reports, and the JSON-RPC messages themselves as they cross the transport
// (`wire.sent`, `wire.received`: received in the order the transport delivered them, before the SDK
// dispatches them).
async function connect() {
  const client = new Client({ name: 'elicitgen-e2e-surface', version: '1.0.0' }, { capabilities: {} });
  const logs = [];
  const updates = [];
  const errors = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updates.push(n.params));
  const changes = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => changes.push('tools'));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => changes.push('prompts'));
  client.onerror = (e) => errors.push(e);
  const transport = httpUrl
    ? new StreamableHTTPClientTransport(new URL(httpUrl))
    : new StdioClientTransport({ command: serverCommand, args: [], stderr: 'ignore' });
  await client.connect(transport);
  const wire = { sent: [], received: [] };
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    wire.received.push(message);
    deliver(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    wire.sent.push(message);
    return send(message, options);
  };
  return { client, logs, updates, changes, errors, wire };
}

// Runs `body` with a fresh session and closes it; fails on any error the SDK reported except the
// progress notifications of typescript-sdk#2580, which are returned (parsed) to `body`'s caller
// through `late` when `allowLateProgress` is set.
async function withClient(body, { allowLateProgress = false } = {}) {
  const s = await connect();
  s.lateProgress = () =>
    s.errors
      .map((e) => UNKNOWN_PROGRESS_TOKEN.exec(String(e?.message)))
      .filter(Boolean)
      .map((m) => JSON.parse(m[1]));
  try {
    await body(s);
    const unexpected = s.errors.filter((e) => !(allowLateProgress && UNKNOWN_PROGRESS_TOKEN.test(String(e?.message))));
    assert.deepEqual(unexpected.map(String), [], 'client.onerror reported errors');
  } finally {
    await s.client.close();
  }
}

// Polls `done()` until it is true; fails after WAIT_MS.
async function waitFor(done, what) {
  const deadline = Date.now() + WAIT_MS;
  while (!done()) {
    if (Date.now() > deadline) assert.fail(`timed out after ${WAIT_MS} ms waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 10));
  }
}

// The 1x1 transparent PNG of the fixtures, checked byte by byte where it matters: the signature,
// the IHDR chunk with width 1 and height 1, and the IEND chunk at the end.
function assertPng1x1(base64) {
  assert.equal(typeof base64, 'string');
  const bytes = Buffer.from(base64, 'base64');
  assert.equal(bytes.toString('base64'), base64, 'canonical base64');
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  assert.equal(bytes.readUInt32BE(16), 1, 'width');
  assert.equal(bytes.readUInt32BE(20), 1, 'height');
  assert.equal(bytes.subarray(bytes.length - 8, bytes.length - 4).toString('latin1'), 'IEND');
  assert.equal(bytes.length, 70);
}

// Asserts that `promise` rejects with a JSON-RPC error of `code` whose data is `data`.
async function assertRpcError(promise, code, data, messagePattern) {
  await assert.rejects(promise, (e) => {
    assert.ok(e instanceof McpError, String(e));
    assert.equal(e.code, code, String(e));
    if (data !== undefined) assert.deepEqual(e.data, data);
    if (messagePattern) assert.match(e.message, messagePattern);
    return true;
  });
}

const text = (t) => ({ type: 'text', text: t });
const completionValues = async (client, ref, name, value) => (await client.complete({ ref, argument: { name, value } })).completion;

const PROMPT_ARGS = { type: 'ref/prompt', name: 'test_prompt_with_arguments' };
const TEMPLATE = 'test://template/{id}/data';
const TEMPLATE_REF = { type: 'ref/resource', uri: TEMPLATE };

test('initialize declares prompts, resources with subscribe, completions, logging and tools, lists that change', async () => {
  await withClient(async ({ client }) => {
    assert.equal(client.getServerVersion().name, 'elicitgen-sample-server');
    const caps = client.getServerCapabilities();
    assert.deepEqual(caps.prompts, { listChanged: true });
    assert.deepEqual(caps.resources, { subscribe: true, listChanged: true });
    assert.deepEqual(caps.completions, {});
    assert.deepEqual(caps.logging, {});
    assert.deepEqual(caps.tools, { listChanged: true });
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const n of ['test_tool_with_logging', 'test_tool_with_progress']) assert.ok(names.includes(n), `missing tool ${n}`);
  });
});

test('prompts/list: the four prompt fixtures with their arguments, in the order added', async () => {
  await withClient(async ({ client }) => {
    const { prompts } = await client.listPrompts();
    // The four, in the order added (the sample server has other prompts too).
    const fixtures = ['test_simple_prompt', 'test_prompt_with_arguments', 'test_prompt_with_embedded_resource', 'test_prompt_with_image'];
    assert.deepEqual(
      prompts.map((p) => p.name).filter((n) => fixtures.includes(n)),
      fixtures,
    );
    const byName = Object.fromEntries(prompts.map((p) => [p.name, p]));
    assert.equal(byName.test_simple_prompt.description, 'A prompt without arguments');
    assert.deepEqual(byName.test_simple_prompt.arguments ?? [], []);
    assert.equal(byName.test_prompt_with_arguments.description, 'A prompt with two arguments');
    assert.deepEqual(byName.test_prompt_with_arguments.arguments, [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ]);
    assert.deepEqual(byName.test_prompt_with_embedded_resource.arguments, [
      { name: 'resourceUri', description: 'URI of the resource to embed', required: true },
    ]);
    assert.deepEqual(byName.test_prompt_with_image.arguments ?? [], []);
  });
});

test('prompts/get: a simple prompt, and one with its arguments substituted', async () => {
  await withClient(async ({ client }) => {
    const simple = await client.getPrompt({ name: 'test_simple_prompt' });
    assert.deepEqual(simple.messages, [{ role: 'user', content: text('This is a simple prompt for testing.') }]);

    const withArgs = await client.getPrompt({
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'first value', arg2: "it's 2nd" },
    });
    assert.deepEqual(withArgs.messages, [
      { role: 'user', content: text("Prompt with arguments: arg1='first value', arg2='it's 2nd'") },
    ]);
  });
});

test('prompts/get: an embedded resource named by its argument, and an image', async () => {
  await withClient(async ({ client }) => {
    const embedded = await client.getPrompt({
      name: 'test_prompt_with_embedded_resource',
      arguments: { resourceUri: 'test://my-resource' },
    });
    assert.deepEqual(embedded.messages, [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: 'test://my-resource', mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: text('Please process the embedded resource above.') },
    ]);

    const image = await client.getPrompt({ name: 'test_prompt_with_image' });
    assert.equal(image.messages.length, 2);
    assert.equal(image.messages[0].role, 'user');
    assert.equal(image.messages[0].content.type, 'image');
    assert.equal(image.messages[0].content.mimeType, 'image/png');
    assertPng1x1(image.messages[0].content.data);
    assert.deepEqual(image.messages[1], { role: 'user', content: text('Please analyze the image above.') });
  });
});

test('prompts/get of an unknown prompt is -32602', async () => {
  await withClient(async ({ client }) => {
    await assertRpcError(client.getPrompt({ name: 'no_such_prompt' }), INVALID_PARAMS, { name: 'no_such_prompt' }, /no_such_prompt/);
  });
});

test('completion/complete: a prompt argument, by prefix, case-insensitively', async () => {
  await withClient(async ({ client }) => {
    assert.deepEqual(await completionValues(client, PROMPT_ARGS, 'arg1', 'te'), {
      values: ['test', 'testing', 'test value'],
      hasMore: false,
    });
    assert.deepEqual((await completionValues(client, PROMPT_ARGS, 'arg1', 'TESTI')).values, ['testing']);
    assert.deepEqual((await completionValues(client, PROMPT_ARGS, 'arg1', '')).values, ['test', 'testing', 'test value', 'other']);
    assert.deepEqual((await completionValues(client, PROMPT_ARGS, 'arg1', 'x')).values, []);
    // arg2 has no completer: no values, not an error.
    assert.deepEqual((await completionValues(client, PROMPT_ARGS, 'arg2', 'te')).values, []);
    await assertRpcError(completionValues(client, PROMPT_ARGS, 'arg3', ''), INVALID_PARAMS, undefined, /arg3/);
    await assertRpcError(
      completionValues(client, { type: 'ref/prompt', name: 'no_such_prompt' }, 'arg1', ''),
      INVALID_PARAMS,
      { name: 'no_such_prompt' },
    );
  });
});

test('completion/complete: a resource template variable', async () => {
  await withClient(async ({ client }) => {
    assert.deepEqual(await completionValues(client, TEMPLATE_REF, 'id', ''), { values: ['123', '456', '789'], hasMore: false });
    assert.deepEqual((await completionValues(client, TEMPLATE_REF, 'id', '4')).values, ['456']);
    assert.deepEqual((await completionValues(client, TEMPLATE_REF, 'id', '0')).values, []);
    await assertRpcError(completionValues(client, TEMPLATE_REF, 'name', ''), INVALID_PARAMS, undefined, /name/);
  });
});

test('resources/list: the three resources, in the order added', async () => {
  await withClient(async ({ client }) => {
    const { resources } = await client.listResources();
    assert.deepEqual(resources, [
      { uri: 'test://static-text', name: 'static-text', description: 'A static text resource', mimeType: 'text/plain' },
      {
        uri: 'test://static-binary',
        name: 'static-binary',
        description: 'A static binary resource (a 1x1 PNG)',
        mimeType: 'image/png',
      },
      {
        uri: 'test://watched-resource',
        name: 'watched-resource',
        description: 'A resource to subscribe to',
        mimeType: 'text/plain',
      },
    ]);
  });
});

test('resources/read: text and binary (base64 blob)', async () => {
  await withClient(async ({ client }) => {
    const textResult = await client.readResource({ uri: 'test://static-text' });
    assert.deepEqual(textResult.contents, [
      { uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
    ]);
    const binary = await client.readResource({ uri: 'test://static-binary' });
    assert.equal(binary.contents.length, 1);
    assert.equal(binary.contents[0].uri, 'test://static-binary');
    assert.equal(binary.contents[0].mimeType, 'image/png');
    assert.equal(binary.contents[0].text, undefined);
    assertPng1x1(binary.contents[0].blob);
  });
});

test('resources/templates/list, and reading URIs that match the template', async () => {
  await withClient(async ({ client }) => {
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates, [
      { uriTemplate: TEMPLATE, name: 'template-data', description: 'Data of one item, by id', mimeType: 'application/json' },
    ]);
    for (const [uri, id] of [
      ['test://template/123/data', '123'],
      ['test://template/a%20b/data', 'a b'],  // the variable arrives percent-decoded; the uri as sent
    ]) {
      const { contents } = await client.readResource({ uri });
      assert.equal(contents.length, 1);
      assert.equal(contents[0].uri, uri);
      assert.equal(contents[0].mimeType, 'application/json');
      assert.deepEqual(JSON.parse(contents[0].text), { id, templateTest: true, data: `Data for ID: ${id}` });
    }
  });
});

test('resources/read of an unknown URI is an error naming the URI', async () => {
  await withClient(async ({ client }) => {
    for (const uri of ['test://no-such-resource', 'test://template/123/other']) {
      await assert.rejects(client.readResource({ uri }), (e) => {
        assert.ok(e instanceof McpError, String(e));
        // -32602 (Invalid Params) in both eras: 2026-07-28 (Resources, "Error Handling") requires it;
        // 2025-11-25 suggests -32002 (a SHOULD), and this server answers -32602 there too, as the
        // TypeScript SDK's own servers do on every revision.
        assert.equal(e.code, INVALID_PARAMS, String(e));
        assert.deepEqual(e.data, { uri });
        assert.match(e.message, /not found/i);
        return true;
      });
    }
  });
});

test('resources/subscribe and unsubscribe: known URIs only, idempotent, no spurious updates', async () => {
  await withClient(async ({ client, updates }) => {
    assert.deepEqual(await client.subscribeResource({ uri: 'test://watched-resource' }), {});
    assert.deepEqual(await client.subscribeResource({ uri: 'test://watched-resource' }), {});  // again: no error
    assert.deepEqual(await client.subscribeResource({ uri: 'test://template/7/data' }), {});  // matches the template
    await assertRpcError(client.subscribeResource({ uri: 'test://no-such-resource' }), INVALID_PARAMS, {
      uri: 'test://no-such-resource',
    });
    // The subscribed resource still reads as before.
    const { contents } = await client.readResource({ uri: 'test://watched-resource' });
    assert.deepEqual(contents, [{ uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched resource content' }]);
    assert.deepEqual(await client.unsubscribeResource({ uri: 'test://watched-resource' }), {});
    assert.deepEqual(await client.unsubscribeResource({ uri: 'test://watched-resource' }), {});  // not subscribed: no error
    assert.deepEqual(await client.unsubscribeResource({ uri: 'test://template/7/data' }), {});
    // resources/subscribe needs params.uri.
    await assertRpcError(client.request({ method: 'resources/subscribe', params: {} }, EmptyResultSchema), INVALID_PARAMS);
    await client.ping();  // anything the server sent before its pong has been handled
    assert.deepEqual(updates, [], 'nothing changed the resources');
  });
});

// test_tool_with_logging logs three messages at level info (logger "conformance") before its result,
// on the call's own stream: stdio's single pipe or the POST's SSE stream. The SDK dispatches each
// notification in order, before the result that follows it on that stream resolves callTool, so the
// messages a call produced are all recorded when callTool returns (checked where they must arrive,
// relied upon where they must not).
const TOOL_LOGS = ['Tool execution started', 'Tool processing data', 'Tool execution completed'].map((data) => ({
  level: 'info',
  logger: 'conformance',
  data,
}));

async function logsOfCall(client, logs) {
  logs.length = 0;
  const result = await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
  assert.deepEqual(result.content, [text('Tool with logging executed successfully')]);
  return [...logs];
}

test('logging: every level before setLevel; at or above the level set, lower ones filtered', async () => {
  await withClient(async ({ client, logs }) => {
    assert.deepEqual(await logsOfCall(client, logs), TOOL_LOGS, 'no level set yet: all messages');
    for (const [level, expected] of [
      ['warning', []],  // info < warning: filtered
      ['info', TOOL_LOGS],  // at the level
      ['emergency', []],
      ['debug', TOOL_LOGS],  // above the level
      ['error', []],
      ['notice', []],
    ]) {
      assert.deepEqual(await client.setLoggingLevel(level), {});
      assert.deepEqual(await logsOfCall(client, logs), expected, `level ${level}`);
    }
    await assertRpcError(
      client.request({ method: 'logging/setLevel', params: { level: 'verbose' } }, EmptyResultSchema),
      INVALID_PARAMS,
    );
    // The level set before the invalid request still applies.
    assert.deepEqual(await logsOfCall(client, logs), [], 'still notice');
    await client.ping();
    assert.deepEqual(logs, [], 'no message arrived late');
  });
});

test('logging: the level is per session', async () => {
  await withClient(async (quiet) => {
    await quiet.client.setLoggingLevel('critical');
    await withClient(async (loud) => {
      assert.deepEqual(await logsOfCall(loud.client, loud.logs), TOOL_LOGS);
      assert.deepEqual(await logsOfCall(quiet.client, quiet.logs), []);
    });
  });
});

// test_tool_with_progress reports 0, 50 and 100 of 100, on the call's own stream (stdio's pipe or
// the POST's SSE stream) before its result: on the wire, checked as received. Each notification
// then either reaches onprogress or, when it arrives together with the result (typescript-sdk#2580),
// client.onerror; between the two, every one of them must arrive, once, in order.
const progressOnWire = (wire) => wire.received.filter((m) => m.method === 'notifications/progress');

test('progress: 0, 50, 100 of 100 with the progressToken of the call, before its result', async () => {
  await withClient(
    async ({ client, lateProgress, errors, wire }) => {
      const seen = [];
      const result = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, {
        onprogress: (p) => seen.push(p),
      });
      assert.deepEqual(result.content, [text('Tool with progress executed successfully')]);
      const request = wire.sent.find((m) => m.method === 'tools/call');
      const token = request.params._meta.progressToken;
      assert.notEqual(token, undefined, 'the SDK sent a progressToken');
      const reply = wire.received.findIndex((m) => m.id === request.id && 'result' in m);
      const onWire = progressOnWire(wire);
      assert.deepEqual(
        onWire.map((m) => m.params),
        [0, 50, 100].map((progress) => ({ progressToken: token, progress, total: 100 })),
      );
      for (const n of onWire) assert.ok(wire.received.indexOf(n) < reply, 'progress before the result');

      await waitFor(() => seen.length + lateProgress().length >= 3, 'three progress notifications dispatched');
      await client.ping();
      const late = lateProgress();
      for (const n of late) assert.equal(n.params.progressToken, token);
      const all = [...seen, ...late.map(({ params: { progressToken, ...rest } }) => rest)];
      assert.deepEqual(all, [
        { progress: 0, total: 100 },
        { progress: 50, total: 100 },
        { progress: 100, total: 100 },
      ]);
      for (let i = 1; i < all.length; ++i) assert.ok(all[i].progress >= all[i - 1].progress, 'progress never decreases');
      assert.equal(errors.length, late.length, 'no other error');
    },
    { allowLateProgress: true },
  );
});

test('progress: none without a progressToken', async () => {
  await withClient(async ({ client, wire }) => {
    const result = await client.callTool({ name: 'test_tool_with_progress', arguments: {} });
    assert.deepEqual(result.content, [text('Tool with progress executed successfully')]);
    assert.equal(wire.sent.find((m) => m.method === 'tools/call').params._meta?.progressToken, undefined);
    // They would have come before the result, on the same stream.
    assert.deepEqual(progressOnWire(wire), []);
  });
});

// test_trigger_resource_update stands for a change of test://watched-resource: the server tells
// every session subscribed to it. Over stdio the notification comes before the tool's result; over
// HTTP it travels on the session's GET stream, so it is waited for (bounded), and its absence after
// unsubscribing is read from the tool's own count.
test('resources/subscribe: an update reaches the subscriber, and stops after unsubscribe', async () => {
  await withClient(async ({ client, updates }) => {
    const trigger = async () => (await client.callTool({ name: 'test_trigger_resource_update', arguments: {} })).content[0].text;
    assert.deepEqual(await client.subscribeResource({ uri: 'test://watched-resource' }), {});
    assert.equal(await trigger(), 'told 1 subscriber(s)');
    await waitFor(() => updates.length === 1, 'notifications/resources/updated');
    assert.deepEqual(updates, [{ uri: 'test://watched-resource' }]);
    assert.deepEqual(await client.unsubscribeResource({ uri: 'test://watched-resource' }), {});
    assert.equal(await trigger(), 'told 0 subscriber(s)');
    await client.ping();
    assert.equal(updates.length, 1);
  });
});

// test_trigger_tool_change / test_trigger_prompt_change add test_dynamic_tool / test_dynamic_prompt,
// or remove them when they are there; each change is announced to every initialized session. Each
// trigger is called twice, so the lists end as they began.
test('list changes: tools and prompts added and removed at run time are announced and listed', async () => {
  await withClient(async ({ client, changes }) => {
    for (const [kind, tool, entry, list] of [
      ['tools', 'test_trigger_tool_change', 'test_dynamic_tool', async () => (await client.listTools()).tools],
      ['prompts', 'test_trigger_prompt_change', 'test_dynamic_prompt', async () => (await client.listPrompts()).prompts],
    ]) {
      for (let round = 0; round < 2; round++) {
        const before = changes.filter((c) => c === kind).length;
        const said = (await client.callTool({ name: tool, arguments: {} })).content[0].text;
        assert.match(said, new RegExp(`^(added|removed) ${entry}$`));
        await waitFor(() => changes.filter((c) => c === kind).length === before + 1, `notifications/${kind}/list_changed`);
        const listed = (await list()).some((e) => e.name === entry);
        assert.equal(listed, said.startsWith('added'), `${entry} ${said.startsWith('added') ? 'listed' : 'gone'}`);
        if (said.startsWith('added') && kind === 'tools') {
          const r = await client.callTool({ name: entry, arguments: {} });
          assert.deepEqual(r.content, [text('dynamic')]);
        }
      }
    }
  });
});
