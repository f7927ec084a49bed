// End-to-end, modern era, the server surface beyond tools: the official MCP TypeScript SDK 2.x client
// (@modelcontextprotocol/client) pinned to 2026-07-28 reads the sample HTTP server's prompts,
// completions, resources and templates (and the resource-not-found error), receives progress and the
// log messages a request asks for with `_meta["io.modelcontextprotocol/logLevel"]` (none without it),
// and listens with subscriptions/listen for tools and prompts added and removed at run time
// (test_trigger_tool_change / test_trigger_prompt_change; each called twice, so the lists end as they
// began). ELICITGEN_HTTP_URL names the running server's endpoint. Waits are bounded events, never
// measures of speed.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const httpUrl = process.env.ELICITGEN_HTTP_URL;
assert.ok(httpUrl, 'set ELICITGEN_HTTP_URL');

const MODERN = '2026-07-28';
const WAIT_MS = 30_000;
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

async function connect() {
  const client = new Client(
    { name: 'elicitgen-e2e-2026-surface', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: MODERN } } },
  );
  const notes = [];
  for (const method of ['notifications/message', 'notifications/tools/list_changed', 'notifications/prompts/list_changed']) {
    client.setNotificationHandler(method, (n) => notes.push({ method, params: n.params }));
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(httpUrl)));
  assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
  return { client, notes };
}

async function withClient(body) {
  const s = await connect();
  try {
    await body(s);
  } finally {
    await s.client.close();
  }
}

async function waitFor(done, what) {
  const deadline = Date.now() + WAIT_MS;
  while (!done()) {
    if (Date.now() > deadline) assert.fail(`timed out after ${WAIT_MS} ms waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 10));
  }
}

test('modern: discover declares prompts, resources (subscribe, listChanged), completions, tools listChanged', async () => {
  await withClient(async ({ client }) => {
    const caps = client.getServerCapabilities();
    assert.deepEqual(caps.tools, { listChanged: true });
    assert.deepEqual(caps.prompts, { listChanged: true });
    assert.deepEqual(caps.resources, { subscribe: true, listChanged: true });
    assert.ok(caps.completions, 'completions');
  });
});

test('modern: prompts listed and got with their arguments', async () => {
  await withClient(async ({ client }) => {
    const names = (await client.listPrompts()).prompts.map((p) => p.name);
    for (const n of ['test_simple_prompt', 'test_prompt_with_arguments', 'test_prompt_with_embedded_resource', 'test_prompt_with_image']) {
      assert.ok(names.includes(n), `missing prompt ${n}`);
    }
    const simple = await client.getPrompt({ name: 'test_simple_prompt' });
    assert.equal(simple.messages[0].content.type, 'text');
    const withArgs = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'alpha', arg2: 'beta' } });
    const text = withArgs.messages[0].content.text;
    assert.ok(text.includes('alpha') && text.includes('beta'), text);
  });
});

test('modern: completion of a prompt argument and of a template variable', async () => {
  await withClient(async ({ client }) => {
    const arg = await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: '' } });
    assert.ok(arg.completion.values.length > 0, JSON.stringify(arg));
    const id = await client.complete({ ref: { type: 'ref/resource', uri: 'test://template/{id}/data' }, argument: { name: 'id', value: '4' } });
    assert.deepEqual(id.completion.values, ['456']);
  });
});

test('modern: resources, templates, and the resource-not-found error', async () => {
  await withClient(async ({ client }) => {
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    for (const u of ['test://static-text', 'test://static-binary', 'test://watched-resource']) assert.ok(uris.includes(u), u);
    const textual = await client.readResource({ uri: 'test://static-text' });
    assert.equal(textual.contents[0].text, 'This is the content of the static text resource.');
    const binary = await client.readResource({ uri: 'test://static-binary' });
    assert.equal(binary.contents[0].mimeType, 'image/png');
    assert.ok(Buffer.from(binary.contents[0].blob, 'base64').length > 8);
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    assert.ok(templates.includes('test://template/{id}/data'));
    const item = await client.readResource({ uri: 'test://template/42/data' });
    assert.deepEqual(JSON.parse(item.contents[0].text), { id: '42', templateTest: true, data: 'Data for ID: 42' });
    await assert.rejects(client.readResource({ uri: 'test://no-such-resource' }), (e) => {
      assert.equal(e.code, -32602, String(e));
      assert.deepEqual(e.data, { uri: 'test://no-such-resource' });
      return true;
    });
  });
});

test('modern: progress of a call, and log messages only at the level the request asks for', async () => {
  await withClient(async ({ client, notes }) => {
    const progress = [];
    const r = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: (p) => progress.push(p) });
    assert.ok(!r.isError);
    await waitFor(() => progress.length >= 3, 'three progress notifications');
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i].progress >= progress[i - 1].progress);
    assert.equal(progress.at(-1).total, 100);

    const logs = () => notes.filter((n) => n.method === 'notifications/message');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.equal(logs().length, 0, 'no logLevel: no log messages');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {}, _meta: { [LOG_LEVEL]: 'info' } });
    await waitFor(() => logs().length === 3, 'three log messages');
    assert.deepEqual(logs().map((n) => n.params.level), ['info', 'info', 'info']);
    await client.callTool({ name: 'test_tool_with_logging', arguments: {}, _meta: { [LOG_LEVEL]: 'warning' } });
    assert.equal(logs().length, 3, 'info messages are below warning');
  });
});

test('modern: subscriptions/listen hears of tools and prompts added and removed, as it asked', async () => {
  await withClient(async ({ client, notes }) => {
    const sub = await client.listen({ toolsListChanged: true, promptsListChanged: true });
    assert.deepEqual(sub.honoredFilter, { toolsListChanged: true, promptsListChanged: true });
    try {
      for (const [kind, tool, entry, list] of [
        ['tools', 'test_trigger_tool_change', 'test_dynamic_tool', async () => (await client.listTools({}, { cache: 'no-store' })).tools],
        ['prompts', 'test_trigger_prompt_change', 'test_dynamic_prompt', async () => (await client.listPrompts({}, { cache: 'no-store' })).prompts],
      ]) {
        const method = `notifications/${kind}/list_changed`;
        for (let round = 0; round < 2; round++) {
          const before = notes.filter((n) => n.method === method).length;
          const said = (await client.callTool({ name: tool, arguments: {} })).content[0].text;
          assert.match(said, new RegExp(`^(added|removed) ${entry}$`));
          await waitFor(() => notes.filter((n) => n.method === method).length === before + 1, method);
          assert.equal((await list()).some((e) => e.name === entry), said.startsWith('added'));
        }
      }
    } finally {
      await sub.close();
    }
  });
});
