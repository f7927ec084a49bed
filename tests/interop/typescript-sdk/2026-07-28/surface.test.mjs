// End-to-end, modern era, the server surface beyond tools: the official MCP TypeScript SDK 2.x client
// (@modelcontextprotocol/client) pinned to 2026-07-28 reads the sample HTTP server's prompts,
// completions, resources and templates (and the resource-not-found error), receives progress and the
// log messages a request asks for with `_meta["io.modelcontextprotocol/logLevel"]` (none without it),
// and listens with subscriptions/listen for tools and prompts added and removed at run time
// (test_trigger_tool_change / test_trigger_prompt_change; each called twice, so the lists end as they
// began) and for updates of a resource (test_trigger_resource_update). ELICITGEN_HTTP_URL names the
// running server's endpoint. Waits are bounded events, never measures of speed.
//
// Every POST is recorded with the JSON-RPC messages of its answer (a JSON body, or each event of
// its SSE stream, read from a clone of the response as it arrives), so the tests also check the wire:
// which stream carried what, in which order, tagged with which progressToken or subscriptionId.
// Every error the SDK reports through client.onerror fails the test.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  Client,
  LOG_LEVEL_META_KEY,
  ResourceNotFoundError,
  StreamableHTTPClientTransport,
  SUBSCRIPTION_ID_META_KEY,
} from '@modelcontextprotocol/client';

const httpUrl = process.env.ELICITGEN_HTTP_URL;
assert.ok(httpUrl, 'set ELICITGEN_HTTP_URL');

const MODERN = '2026-07-28';
const WAIT_MS = 30_000;  // a bound for events that must come, never a measure of speed
const INVALID_PARAMS = -32602;
assert.equal(LOG_LEVEL_META_KEY, 'io.modelcontextprotocol/logLevel');
assert.equal(SUBSCRIPTION_ID_META_KEY, 'io.modelcontextprotocol/subscriptionId');

// Appends to `into` each JSON-RPC message of an answer: the body of application/json, each `data`
// of text/event-stream (as it arrives: a listen stream ends only when it is left). Never throws:
// a read that fails (the SDK aborting a listen stream) is recorded in `post.readError`.
async function readMessages(response, post) {
  try {
    const type = response.headers.get('content-type') ?? '';
    if (type.startsWith('application/json')) {
      post.messages.push(JSON.parse(await response.text()));
    } else if (type.startsWith('text/event-stream')) {
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end; (end = buffer.search(/\r?\n\r?\n/)) >= 0; ) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
          const data = event
            .split(/\r?\n/)
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).replace(/^ /, ''));
          if (data.length > 0) post.messages.push(JSON.parse(data.join('\n')));
        }
      }
    }
  } catch (e) {
    post.readError = e;
  }
}

// A fetch that records every POST: its JSON-RPC body, the response status, the messages of the
// answer, and `done`, which resolves once the answer has been read to its end.
function recordingFetch(posts) {
  return async (url, init) => {
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const response = await fetch(url, init);
    const post = { body, status: response.status, messages: [] };
    post.done = readMessages(response.clone(), post);
    posts.push(post);
    return response;
  };
}

// A client pinned to 2026-07-28; records the notifications its handlers receive, what reaches
// client.onerror, and every POST.
async function connect() {
  const client = new Client(
    { name: 'elicitgen-e2e-2026-surface', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: MODERN } } },
  );
  const notes = [];
  for (const method of [
    'notifications/message',
    'notifications/tools/list_changed',
    'notifications/prompts/list_changed',
    'notifications/resources/updated',
  ]) {
    client.setNotificationHandler(method, (n) => notes.push({ method, params: n.params }));
  }
  const errors = [];
  client.onerror = (e) => errors.push(e);
  const posts = [];
  await client.connect(new StreamableHTTPClientTransport(new URL(httpUrl), { fetch: recordingFetch(posts) }));
  assert.equal(client.getProtocolEra(), 'modern');
  assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
  return { client, notes, posts, errors };
}

async function withClient(body) {
  const s = await connect();
  try {
    await body(s);
    assert.deepEqual(s.errors.map(String), [], 'client.onerror reported errors');
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

// The last POST whose body is a `method` request (for tools/call: of tool `name`), read to its end.
async function lastPost(posts, method, name) {
  const post = posts.findLast((p) => p.body?.method === method && (name === undefined || p.body.params?.name === name));
  assert.ok(post, `a ${method} POST`);
  await post.done;
  assert.equal(post.readError, undefined);
  return post;
}

// The 1x1 transparent PNG of the fixtures (as in ../e2e/surface.test.mjs).
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
    assert.equal(e.code, code, String(e));
    if (data !== undefined) assert.deepEqual(e.data, data);
    if (messagePattern) assert.match(e.message, messagePattern);
    return true;
  });
}

const text = (t) => ({ type: 'text', text: t });
const completion = async (client, ref, name, value) => (await client.complete({ ref, argument: { name, value } })).completion;
const PROMPT_ARGS = { type: 'ref/prompt', name: 'test_prompt_with_arguments' };
const TEMPLATE = 'test://template/{id}/data';
const TEMPLATE_REF = { type: 'ref/resource', uri: TEMPLATE };

test('modern: discover declares prompts, resources (subscribe, listChanged), completions, logging, tools listChanged', async () => {
  await withClient(async ({ client }) => {
    assert.equal(client.getServerVersion()?.name, 'elicitgen-sample-server');
    const caps = client.getServerCapabilities();
    assert.deepEqual(caps.tools, { listChanged: true });
    assert.deepEqual(caps.prompts, { listChanged: true });
    assert.deepEqual(caps.resources, { subscribe: true, listChanged: true });
    assert.deepEqual(caps.completions, {});
    assert.deepEqual(caps.logging, {});
  });
});

test('modern: prompts listed, got with their arguments substituted, an embedded resource, an image; unknown: -32602', async () => {
  await withClient(async ({ client }) => {
    const { prompts } = await client.listPrompts();
    const fixtures = ['test_simple_prompt', 'test_prompt_with_arguments', 'test_prompt_with_embedded_resource', 'test_prompt_with_image'];
    assert.deepEqual(
      prompts.map((p) => p.name).filter((n) => fixtures.includes(n)),
      fixtures,
    );
    const byName = Object.fromEntries(prompts.map((p) => [p.name, p]));
    assert.deepEqual(byName.test_prompt_with_arguments.arguments, [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ]);

    const simple = await client.getPrompt({ name: 'test_simple_prompt' });
    assert.deepEqual(simple.messages, [{ role: 'user', content: text('This is a simple prompt for testing.') }]);
    const withArgs = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'alpha', arg2: 'beta gamma' } });
    assert.deepEqual(withArgs.messages, [{ role: 'user', content: text("Prompt with arguments: arg1='alpha', arg2='beta gamma'") }]);
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
    assert.equal(image.messages[0].content.type, 'image');
    assert.equal(image.messages[0].content.mimeType, 'image/png');
    assertPng1x1(image.messages[0].content.data);
    assert.deepEqual(image.messages[1], { role: 'user', content: text('Please analyze the image above.') });

    await assertRpcError(client.getPrompt({ name: 'no_such_prompt' }), INVALID_PARAMS, { name: 'no_such_prompt' }, /no_such_prompt/);
  });
});

test('modern: completion of a prompt argument and of a template variable', async () => {
  await withClient(async ({ client }) => {
    assert.deepEqual(await completion(client, PROMPT_ARGS, 'arg1', 'te'), { values: ['test', 'testing', 'test value'], hasMore: false });
    assert.deepEqual((await completion(client, PROMPT_ARGS, 'arg1', '')).values, ['test', 'testing', 'test value', 'other']);
    assert.deepEqual((await completion(client, PROMPT_ARGS, 'arg2', 'te')).values, [], 'arg2 has no completer');
    assert.deepEqual(await completion(client, TEMPLATE_REF, 'id', ''), { values: ['123', '456', '789'], hasMore: false });
    assert.deepEqual((await completion(client, TEMPLATE_REF, 'id', '4')).values, ['456']);
    await assertRpcError(completion(client, { type: 'ref/prompt', name: 'no_such_prompt' }, 'arg1', ''), INVALID_PARAMS, {
      name: 'no_such_prompt',
    });
  });
});

test('modern: resources listed and read (text, base64 blob), templates, and the resource-not-found error', async () => {
  await withClient(async ({ client }) => {
    const { resources } = await client.listResources();
    assert.deepEqual(
      resources.map((r) => [r.uri, r.mimeType]),
      [
        ['test://static-text', 'text/plain'],
        ['test://static-binary', 'image/png'],
        ['test://watched-resource', 'text/plain'],
      ],
    );
    const textual = await client.readResource({ uri: 'test://static-text' });
    assert.deepEqual(textual.contents, [
      { uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
    ]);
    const binary = await client.readResource({ uri: 'test://static-binary' });
    assert.equal(binary.contents.length, 1);
    assert.equal(binary.contents[0].mimeType, 'image/png');
    assert.equal(binary.contents[0].text, undefined);
    assertPng1x1(binary.contents[0].blob);

    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates, [
      { uriTemplate: TEMPLATE, name: 'template-data', description: 'Data of one item, by id', mimeType: 'application/json' },
    ]);
    const item = await client.readResource({ uri: 'test://template/42/data' });
    assert.deepEqual(item.contents.map((c) => [c.uri, c.mimeType]), [['test://template/42/data', 'application/json']]);
    assert.deepEqual(JSON.parse(item.contents[0].text), { id: '42', templateTest: true, data: 'Data for ID: 42' });

    // 2026-07-28 (Resources, "Error Handling"): -32602 with data.uri; the SDK makes it a
    // ResourceNotFoundError.
    for (const uri of ['test://no-such-resource', 'test://template/42/other']) {
      await assert.rejects(client.readResource({ uri }), (e) => {
        assert.ok(e instanceof ResourceNotFoundError, String(e));
        assert.equal(e.code, INVALID_PARAMS);
        assert.deepEqual(e.data, { uri });
        assert.match(e.message, /not found/i);
        return true;
      });
    }
  });
});

// test_tool_with_progress reports 0, 50 and 100 of 100 on the POST's SSE stream, before its result.
test('modern: progress of a call, with its progressToken, on its own stream before its result', async () => {
  await withClient(async ({ client, posts }) => {
    const progress = [];
    const r = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: (p) => progress.push(p) });
    assert.deepEqual(r.content, [text('Tool with progress executed successfully')]);
    await waitFor(() => progress.length >= 3, 'three progress notifications');
    assert.deepEqual(
      progress.map((p) => [p.progress, p.total]),
      [
        [0, 100],
        [50, 100],
        [100, 100],
      ],
    );
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i].progress >= progress[i - 1].progress);

    const post = await lastPost(posts, 'tools/call', 'test_tool_with_progress');
    const token = post.body.params._meta.progressToken;
    assert.notEqual(token, undefined, 'the SDK sent a progressToken');
    assert.deepEqual(
      post.messages.map((m) => m.method ?? `response ${m.id}`),
      ['notifications/progress', 'notifications/progress', 'notifications/progress', `response ${post.body.id}`],
    );
    for (const m of post.messages.slice(0, 3)) assert.equal(m.params.progressToken, token);

    await client.callTool({ name: 'test_tool_with_progress', arguments: {} });
    const quiet = await lastPost(posts, 'tools/call', 'test_tool_with_progress');
    assert.notEqual(quiet, post);
    assert.equal(quiet.body.params._meta.progressToken, undefined);
    assert.deepEqual(quiet.messages.map((m) => m.method ?? 'response'), ['response'], 'no progressToken: no progress');
  });
});

// test_tool_with_logging logs three messages at level info (logger "conformance"). 2026-07-28
// (Logging, "Per-request log level"): none for a request without the level; at or above it on that
// request's response stream only, before the final response.
const TOOL_LOGS = ['Tool execution started', 'Tool processing data', 'Tool execution completed'].map((data) => ({
  level: 'info',
  logger: 'conformance',
  data,
}));

test('modern: log messages only at or above the level a request asks for, on its own stream', async () => {
  await withClient(async ({ client, notes, posts }) => {
    for (const [level, expected] of [
      [undefined, []],  // "MUST NOT emit notifications/message for a request that does not include this field"
      ['info', TOOL_LOGS],  // at the level
      ['debug', TOOL_LOGS],  // above it
      ['warning', []],  // info < warning
      ['emergency', []],
    ]) {
      const meta = level === undefined ? undefined : { [LOG_LEVEL_META_KEY]: level };
      const r = await client.callTool({ name: 'test_tool_with_logging', arguments: {}, ...(meta && { _meta: meta }) });
      assert.deepEqual(r.content, [text('Tool with logging executed successfully')]);
      const post = await lastPost(posts, 'tools/call', 'test_tool_with_logging');
      assert.equal(post.body.params._meta[LOG_LEVEL_META_KEY], level, 'the level reached the wire');
      // The answer's stream, read to its end: the messages, then the response.
      const logs = post.messages.filter((m) => m.method === 'notifications/message');
      assert.deepEqual(
        logs.map((m) => m.params),
        expected,
        `level ${level}`,
      );
      assert.equal(post.messages.length, expected.length + 1);
      assert.equal(post.messages.at(-1).id, post.body.id, 'the response last');
    }
    // Every message on the wire reached the handler, none other.
    await waitFor(() => notes.filter((n) => n.method === 'notifications/message').length >= 2 * TOOL_LOGS.length, 'the log messages');
    assert.deepEqual(
      notes.filter((n) => n.method === 'notifications/message').map((n) => n.params),
      [...TOOL_LOGS, ...TOOL_LOGS],
    );
    // Logging, "Error Handling": an unknown level SHOULD be -32602.
    await assertRpcError(
      client.callTool({ name: 'test_tool_with_logging', arguments: {}, _meta: { [LOG_LEVEL_META_KEY]: 'verbose' } }),
      INVALID_PARAMS,
      undefined,
      /log level/,
    );
  });
});

// The listen POST's stream as the SDK opened it: the acknowledgment first, naming the listen
// request's id in _meta; then the notifications, each named so too.
function listenStream(posts) {
  const listens = posts.filter((p) => p.body?.method === 'subscriptions/listen');
  assert.equal(listens.length, 1, 'one subscriptions/listen POST');
  const [post] = listens;
  const id = post.body.id;
  assert.equal(post.status, 200);
  assert.equal(post.messages[0].method, 'notifications/subscriptions/acknowledged');
  for (const m of post.messages) {
    assert.ok(m.method, `only notifications before the stream is left: ${JSON.stringify(m)}`);
    assert.deepEqual(m.params._meta, { [SUBSCRIPTION_ID_META_KEY]: id }, `${m.method} names the subscription`);
  }
  return post;
}

test('modern: subscriptions/listen hears of tools and prompts added and removed, as it asked, tagged with its id', async () => {
  await withClient(async ({ client, notes, posts }) => {
    const sub = await client.listen({ toolsListChanged: true, promptsListChanged: true });
    assert.deepEqual(sub.honoredFilter, { toolsListChanged: true, promptsListChanged: true });
    try {
      const stream = listenStream(posts);
      assert.deepEqual(stream.body.params.notifications, { toolsListChanged: true, promptsListChanged: true });
      assert.deepEqual(stream.messages[0].params.notifications, { toolsListChanged: true, promptsListChanged: true });
      for (const [kind, tool, entry, list] of [
        ['tools', 'test_trigger_tool_change', 'test_dynamic_tool', async () => (await client.listTools({}, { cache: 'no-store' })).tools],
        ['prompts', 'test_trigger_prompt_change', 'test_dynamic_prompt', async () => (await client.listPrompts({}, { cache: 'no-store' })).prompts],
      ]) {
        const method = `notifications/${kind}/list_changed`;
        for (let round = 0; round < 2; round++) {
          const heard = notes.filter((n) => n.method === method).length;
          const onStream = stream.messages.filter((m) => m.method === method).length;
          const said = (await client.callTool({ name: tool, arguments: {} })).content[0].text;
          assert.match(said, new RegExp(`^(added|removed) ${entry}$`));
          await waitFor(() => notes.filter((n) => n.method === method).length === heard + 1, method);
          await waitFor(() => stream.messages.filter((m) => m.method === method).length === onStream + 1, `${method} on the listen stream`);
          assert.equal((await list()).some((e) => e.name === entry), said.startsWith('added'));
          // A list change travels on the listen stream only, not on the trigger's own answer.
          const triggered = await lastPost(posts, 'tools/call', tool);
          assert.deepEqual(triggered.messages.map((m) => m.method ?? 'response'), ['response']);
        }
      }
      listenStream(posts);  // still all tagged
      assert.ok(
        stream.messages.slice(1).every((m) => m.method === 'notifications/tools/list_changed' || m.method === 'notifications/prompts/list_changed'),
        'only what the filter names',
      );
    } finally {
      await sub.close();
    }
    assert.equal(await sub.closed, 'local');
  });
});

// test_trigger_resource_update stands for a change of test://watched-resource and answers how many
// subscribers it told. Leaving the listen stream ends the subscription when the server sees the
// stream closed, which it learns asynchronously: the count is polled (bounded) until it is 0.
test('modern: subscriptions/listen with resourceSubscriptions hears of updates of the resource, known URIs only', async () => {
  await withClient(async ({ client, notes, posts }) => {
    const trigger = async () => (await client.callTool({ name: 'test_trigger_resource_update', arguments: {} })).content[0].text;
    const sub = await client.listen({ resourceSubscriptions: ['test://watched-resource', 'test://no-such-resource'] });
    // Unknown URIs are left out of the acknowledgment ("types the server does not support are omitted").
    assert.deepEqual(sub.honoredFilter, { resourceSubscriptions: ['test://watched-resource'] });
    try {
      const stream = listenStream(posts);
      assert.equal(await trigger(), 'told 1 subscriber(s)');
      await waitFor(() => notes.some((n) => n.method === 'notifications/resources/updated'), 'notifications/resources/updated');
      await waitFor(() => stream.messages.length === 2, 'the update on the listen stream');
      listenStream(posts);
      assert.equal(stream.messages[1].method, 'notifications/resources/updated');
      assert.equal(stream.messages[1].params.uri, 'test://watched-resource');
      const updates = notes.filter((n) => n.method === 'notifications/resources/updated');
      assert.equal(updates.length, 1);
      assert.equal(updates[0].params.uri, 'test://watched-resource');
    } finally {
      await sub.close();
    }
    const deadline = Date.now() + WAIT_MS;
    for (let told; (told = await trigger()) !== 'told 0 subscriber(s)'; ) {
      assert.equal(told, 'told 1 subscriber(s)');
      if (Date.now() > deadline) assert.fail(`the server still had the subscriber ${WAIT_MS} ms after the stream was left`);
      await new Promise((ok) => setTimeout(ok, 10));
    }
  });
});
