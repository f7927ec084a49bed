// End to end: the official Tasks extension client (@modelcontextprotocol/ext-tasks, its requester
// session over an @modelcontextprotocol/client 2.x Client pinned to 2026-07-28) drives tasks
// (io.modelcontextprotocol/tasks, SEP-2663) on the elicitgen Streamable HTTP sample server
// (ELICITGEN_HTTP_URL names a running server's endpoint): tools/call answered with a CreateTaskResult,
// tasks/get polled by the package at the server's pollIntervalMs, the task's questions (inputRequests)
// handed to the session's onInputRequest and answered with tasks/update, tasks/cancel. The tools are
// the sample server's task fixtures (samples/task_fixtures.cpp); README.md says what each test checks.
//
// ext-tasks needs, for a 2026-07-28 server, a host request path (`rawDispatch`, which it sends
// tools/call and tasks/* through; its typings: "Host-owned request coordinator used when SDK wire
// codecs reject V2 task traffic") and the values the Client was made with (`v2RequestFraming`). The host path here is the SDK's own StreamableHTTPClientTransport, with a
// small coordinator that owns the request ids and matches the responses; it records every exchange
// so that the tests check the wire as well as what the package reports.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  DispatchError,
  TaskFailedError,
  createApplicationInputHandler,
  createTaskSessionEndpointId,
  createTaskSessionFromClient,
  resultFromTaskOutcome,
} from '@modelcontextprotocol/ext-tasks/client';

const httpUrl = process.env.ELICITGEN_HTTP_URL;
assert.ok(httpUrl, 'set ELICITGEN_HTTP_URL');

const MODERN = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const CLIENT_INFO = { name: 'elicitgen-e2e-ext-tasks', version: '1.0.0' };
const CAPABILITIES = { elicitation: { form: {} } };

// The sample server's task options (TaskOptions defaults, docs/server.md "Long calls as tasks").
const TTL_MS = 30 * 60 * 1000;
const POLL_INTERVAL_MS = 500;

// Bounds: every wait below ends by itself. A request gets REQUEST_MS; a task gets SETTLE_MS to settle
// (the package polls every POLL_INTERVAL_MS, so that is dozens of polls even on a busy machine);
// a test gets TEST_MS in all; an execution gets at most MAX_INPUT_ROUNDS questions.
const REQUEST_MS = 30_000;
const SETTLE_MS = 60_000;
const TEST_MS = 120_000;
const MAX_INPUT_ROUNDS = 4;

const DELETE_CONFIRMATION = JSON.parse(
  readFileSync(new URL('../../../samples/schemas/delete_confirmation.json', import.meta.url), 'utf8'),
);

// A fetch that records every POST's headers and status.
function recordingFetch(posts) {
  return async (url, init) => {
    const response = await fetch(url, init);
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    posts.push({ body, headers: new Headers(init?.headers), status: response.status });
    return response;
  };
}

// The host's request coordinator (ext-tasks' `rawDispatch`): sends a request ({method, params}, framed
// by the package) on the SDK's Streamable HTTP client transport under its own id and resolves with the
// matching response as {kind: "result", result} or {kind: "error", error}. Each exchange is recorded.
async function requestCoordinator(url, exchanges, posts) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: recordingFetch(posts) });
  const pending = new Map();
  let next = 0;
  transport.onmessage = (message) => {
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiter || !('result' in message || 'error' in message)) return;
    pending.delete(message.id);
    waiter.exchange.response = message;
    waiter.resolve('error' in message ? { kind: 'error', error: message.error } : { kind: 'result', result: message.result });
  };
  await transport.start();
  const dispatch = async (request, options = {}) => {
    const id = `host-${++next}`;
    const message = { jsonrpc: '2.0', id, ...request };
    const exchange = { request: message, response: undefined };
    exchanges.push(exchange);
    const timeoutMs = options.context?.requestTimeoutMs ?? REQUEST_MS;
    let timer;
    let onAbort;
    const response = new Promise((resolve, reject) => {
      pending.set(id, { resolve, exchange });
      timer = setTimeout(() => {
        pending.delete(id);
        reject(new DispatchError(`${request.method}: no response within ${timeoutMs} ms`));
      }, timeoutMs);
      onAbort = () => {
        pending.delete(id);
        exchange.aborted = true;
        reject(options.signal.reason);
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await transport.send(message, { headers: options.context?.headers, requestSignal: options.signal });
      return await response;
    } catch (error) {
      pending.delete(id);
      response.catch(() => {});
      if (options.signal?.aborted) exchange.aborted = true;  // also when it was before the POST
      if (error instanceof DispatchError || options.signal?.aborted) throw error;
      throw new DispatchError(`${request.method} failed`, false, { cause: error });
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  };
  return { dispatch, close: () => transport.close() };
}

// A Client pinned to 2026-07-28 and a task-enabled ext-tasks session over it; `answer(request,
// context, asked)` plays the user for each elicitation the session is handed (asked: how many so
// far, this one included).
async function openSession(answer) {
  const client = new Client(CLIENT_INFO, { capabilities: CAPABILITIES, versionNegotiation: { mode: { pin: MODERN } } });
  const clientPosts = [];
  await client.connect(new StreamableHTTPClientTransport(new URL(httpUrl), { fetch: recordingFetch(clientPosts) }));
  assert.equal(client.getProtocolEra(), 'modern');
  assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
  assert.deepEqual(client.getServerCapabilities()?.extensions?.[TASKS], {}, 'server/discover declares the tasks extension');

  const exchanges = [];
  const posts = [];
  const host = await requestCoordinator(httpUrl, exchanges, posts);
  const asked = [];
  const errors = [];
  const session = createTaskSessionFromClient(client, {
    endpointId: await createTaskSessionEndpointId('elicitgen-e2e', { url: httpUrl }),
    rawDispatch: host.dispatch,
    v2RequestFraming: { protocolVersion: MODERN, clientInfo: CLIENT_INFO, clientCapabilities: CAPABILITIES },
    maxInputRounds: MAX_INPUT_ROUNDS,
    onError: (error) => errors.push(error),
    onInputRequest: createApplicationInputHandler({
      elicitation: async (request, context) => {
        asked.push({ request, context });
        return answer(request, context, asked.length);
      },
      sampling: () => {
        throw new Error('no sampling expected');
      },
      roots: () => {
        throw new Error('no roots expected');
      },
    }),
  });
  assert.equal(session.capabilities.execution, true);
  assert.equal(session.capabilities.inputResponses, true);
  assert.equal(session.capabilities.cancellation, true);
  const close = async () => {
    await session.close();
    await host.close();
    await client.close();
  };
  return { client, session, exchanges, posts, asked, errors, close };
}

// Settles an execution within SETTLE_MS, collecting the statuses it went through.
async function settle(execution) {
  const statuses = [];
  const settlement = await execution.settle({
    signal: AbortSignal.timeout(SETTLE_MS),
    onEvent: (event) => {
      if (event.type === 'task') statuses.push(event.task.status);
    },
  });
  return { ...settlement, statuses };
}

const textOf = (result) => result.content.map((c) => c.text).join('\n');
const byMethod = (exchanges, method) => exchanges.filter((e) => e.request.method === method);
const getResults = (exchanges) =>
  byMethod(exchanges, 'tasks/get').filter((e) => e.response).map((e) => e.response.result);

// The CreateTaskResult of the one tools/call, checked against tasks.md "Task Creation".
function createdTask(exchanges, name, args) {
  const calls = byMethod(exchanges, 'tools/call');
  assert.equal(calls.length, 1, 'one tools/call');
  const { params } = calls[0].request;
  assert.equal(params.name, name);
  assert.deepEqual(params.arguments, args);
  assert.equal(params._meta['io.modelcontextprotocol/protocolVersion'], MODERN);
  assert.deepEqual(params._meta['io.modelcontextprotocol/clientInfo'], CLIENT_INFO);
  assert.deepEqual(params._meta['io.modelcontextprotocol/clientCapabilities'], {
    ...CAPABILITIES,
    extensions: { [TASKS]: {} },
  });
  const created = calls[0].response.result;
  assert.equal(created.resultType, 'task');
  assert.match(created.taskId, /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
  assert.equal(created.status, 'working');
  assert.equal(created.ttlMs, TTL_MS);
  assert.equal(created.pollIntervalMs, POLL_INTERVAL_MS);
  assert.match(created.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  assert.match(created.lastUpdatedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  return created;
}

// Every tasks/* exchange names the task in params.taskId and in the Mcp-Name header, carries the
// 2026-07-28 headers, and every tasks/* result says resultType "complete" (tasks.md).
function checkTaskRequests(exchanges, posts, taskId) {
  // A poll the package gave up (its execution settled meanwhile, e.g. cancelled) has no response.
  const taskExchanges = exchanges.filter((e) => e.request.method.startsWith('tasks/') && !e.aborted);
  assert.ok(taskExchanges.length > 0);
  for (const e of taskExchanges) {
    assert.equal(e.request.params.taskId, taskId);
    assert.deepEqual(e.request.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions, { [TASKS]: {} });
    assert.ok(e.response?.result, `${e.request.method} answered with a result: ${JSON.stringify(e.response)}`);
    assert.equal(e.response.result.resultType, 'complete', `${e.request.method} resultType`);
    if (e.request.method === 'tasks/get') assert.equal(e.response.result.taskId, taskId);
  }
  for (const p of posts.filter((p) => p.body?.method?.startsWith('tasks/'))) {
    assert.equal(p.status, 200);
    assert.equal(p.headers.get('mcp-protocol-version'), MODERN);
    assert.equal(p.headers.get('mcp-method'), p.body.method);
    assert.equal(p.headers.get('mcp-name'), taskId);
  }
}

// The one question of an input_required tasks/get: its key and request.
function onlyQuestion(getResult) {
  assert.equal(getResult.status, 'input_required');
  const entries = Object.entries(getResult.inputRequests);
  assert.equal(entries.length, 1, 'one question');
  return entries[0];
}

// The delete confirmation the confirm_delete fixture asks (samples/task_fixtures.cpp):
// elicit<samples::DeleteConfirmation>("Delete <file>?"), the schema of
// samples/schemas/delete_confirmation.json.
function checkDeleteQuestion(request, file) {
  assert.equal(request.method, 'elicitation/create');
  assert.equal(request.params.mode, 'form');
  assert.equal(request.params.message, `Delete ${file}?`);
  assert.deepEqual(request.params.requestedSchema, DELETE_CONFIRMATION.requestedSchema);
}

test('confirm_delete as a task: created, asks the typed form, an accepted answer completes it', { timeout: TEST_MS }, async () => {
  const s = await openSession(() => ({ action: 'accept', content: { confirm: true } }));
  try {
    const execution = await s.session.callTool('confirm_delete', { filename: 'report.txt' }, { task: { preference: 'require' } });
    assert.equal(execution.kind, 'task');
    const created = createdTask(s.exchanges, 'confirm_delete', { filename: 'report.txt' });
    assert.equal(execution.handle.taskId, created.taskId);
    assert.equal(execution.handle.operation, 'tools/call');

    const { outcome, lastTask, statuses } = await settle(execution);
    assert.equal(outcome.status, 'completed');
    const result = resultFromTaskOutcome(outcome);
    assert.equal(textOf(result), 'deleted report.txt');
    assert.equal(result.isError, undefined);
    assert.equal(lastTask.status, 'completed');
    assert.equal(lastTask.taskId, created.taskId);
    assert.equal(lastTask.retentionMs, TTL_MS);
    assert.equal(lastTask.suggestedPollIntervalMs, POLL_INTERVAL_MS);
    assert.ok(statuses.includes('input_required'), `statuses: ${statuses}`);
    assert.equal(statuses.at(-1), 'completed');

    // The question, as the session handed it to the application: once, under the key of the task.
    assert.equal(s.asked.length, 1);
    assert.equal(s.asked[0].context.scope, 'task');
    assert.equal(s.asked[0].context.delivery, 'task-update');
    assert.equal(s.asked[0].context.taskId, created.taskId);
    assert.equal(s.asked[0].request.kind, 'elicitation');
    checkDeleteQuestion({ method: 'elicitation/create', params: s.asked[0].request.params }, 'report.txt');

    // The wire: tasks/get showed the question in inputRequests, under the key the answer came back with.
    const gets = getResults(s.exchanges);
    const asking = gets.find((g) => g.status === 'input_required');
    assert.ok(asking, 'a tasks/get answered input_required');
    const [key, question] = onlyQuestion(asking);
    assert.equal(key, 'elicitation-1');
    assert.equal(key, s.asked[0].context.inputId);
    assert.equal(asking.statusMessage, 'waiting for input');
    checkDeleteQuestion(question, 'report.txt');
    const updates = byMethod(s.exchanges, 'tasks/update');
    assert.equal(updates.length, 1);
    assert.deepEqual(updates[0].request.params.inputResponses, { [key]: { action: 'accept', content: { confirm: true } } });
    assert.deepEqual(Object.keys(updates[0].response.result).filter((k) => k !== '_meta'), ['resultType']);
    // The last tasks/get: completed, with the CallToolResult, nothing else of another status.
    const done = gets.at(-1);
    assert.equal(done.status, 'completed');
    // The CallToolResult the tools/call would have answered, resultType included (2026-07-28).
    assert.deepEqual(done.result, { content: [{ type: 'text', text: 'deleted report.txt' }], resultType: 'complete' });
    assert.equal(done.inputRequests, undefined);
    assert.equal(done.error, undefined);
    assert.ok(Date.parse(done.lastUpdatedAt) >= Date.parse(done.createdAt));
    assert.equal(done.createdAt, created.createdAt);
    checkTaskRequests(s.exchanges, s.posts, created.taskId);
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});

test('an answer that breaks the schema is asked again under a new key, then a valid one completes the task', { timeout: TEST_MS }, async () => {
  // First answer: confirm is a string, the schema says boolean.
  const s = await openSession((request, context, asked) =>
    asked === 1 ? { action: 'accept', content: { confirm: 'yes' } } : { action: 'accept', content: { confirm: false } });
  try {
    const execution = await s.session.callTool('confirm_delete', { filename: 'notes.md' });
    assert.equal(execution.kind, 'task');
    const created = createdTask(s.exchanges, 'confirm_delete', { filename: 'notes.md' });
    const { outcome, statuses } = await settle(execution);
    assert.equal(outcome.status, 'completed');
    assert.equal(textOf(resultFromTaskOutcome(outcome)), 'kept notes.md');
    assert.equal(statuses.at(-1), 'completed');

    // Two questions, under two keys: the second is the first key asked again (K.2 style).
    assert.equal(s.asked.length, 2);
    const [first, second] = s.asked.map((a) => a.context.inputId);
    assert.equal(first, 'elicitation-1');
    assert.equal(second, 'elicitation-1.2');
    const questions = getResults(s.exchanges).filter((g) => g.status === 'input_required').map(onlyQuestion);
    assert.deepEqual([...new Set(questions.map(([key]) => key))], [first, second]);
    for (const [, question] of questions) {
      assert.equal(question.method, 'elicitation/create');
      assert.equal(question.params.mode, 'form');
      assert.deepEqual(question.params.requestedSchema, DELETE_CONFIRMATION.requestedSchema);
    }
    const firstQuestion = questions.find(([key]) => key === first)[1];
    const again = questions.find(([key]) => key === second)[1];
    assert.equal(firstQuestion.params.message, 'Delete notes.md?');
    assert.equal(again.params.message, 'Delete notes.md?\n\nThe previous answer was not accepted: confirm: must be a boolean');
    assert.equal(s.asked[1].request.params.message, again.params.message);

    const updates = byMethod(s.exchanges, 'tasks/update').map((e) => e.request.params.inputResponses);
    assert.deepEqual(updates, [
      { [first]: { action: 'accept', content: { confirm: 'yes' } } },
      { [second]: { action: 'accept', content: { confirm: false } } },
    ]);
    checkTaskRequests(s.exchanges, s.posts, created.taskId);
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});

test('decline: the task completes with the fixture text for a declined form', { timeout: TEST_MS }, async () => {
  const s = await openSession(() => ({ action: 'decline' }));
  try {
    const execution = await s.session.callTool('confirm_delete', { filename: 'draft.txt' });
    const created = createdTask(s.exchanges, 'confirm_delete', { filename: 'draft.txt' });
    const { outcome } = await settle(execution);
    assert.equal(outcome.status, 'completed');
    const result = resultFromTaskOutcome(outcome);
    assert.equal(textOf(result), 'kept draft.txt: declined');
    assert.equal(result.isError, undefined);
    assert.equal(s.asked.length, 1, 'a declined form is not asked again');
    const [key] = onlyQuestion(getResults(s.exchanges).find((g) => g.status === 'input_required'));
    assert.deepEqual(byMethod(s.exchanges, 'tasks/update').map((e) => e.request.params.inputResponses), [
      { [key]: { action: 'decline' } },
    ]);
    checkTaskRequests(s.exchanges, s.posts, created.taskId);
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});

test('tasks/cancel while the form is open: the task is cancelled and stays cancelled', { timeout: TEST_MS }, async () => {
  // The user never answers: the handler waits until the session withdraws the question (the
  // cancellation ends the task's input lifetime) or the test's own bound.
  let opened;
  let withdrawn = false;
  const formOpen = new Promise((resolve) => (opened = resolve));
  const s = await openSession((request, context) => {
    opened(context);
    return new Promise((_, reject) => {
      const bound = setTimeout(() => reject(new Error('the question was never withdrawn')), SETTLE_MS);
      context.signal?.addEventListener('abort', () => {
        withdrawn = true;
        clearTimeout(bound);
        reject(context.signal.reason);
      }, { once: true });
    });
  });
  try {
    const execution = await s.session.callTool('confirm_delete', { filename: 'keep.me' });
    const created = createdTask(s.exchanges, 'confirm_delete', { filename: 'keep.me' });
    const context = await Promise.race([
      formOpen,
      new Promise((_, reject) => setTimeout(() => reject(new Error('no question within the bound')), SETTLE_MS).unref()),
    ]);
    assert.equal(context.taskId, created.taskId);
    // The task is input_required now: the question came from a tasks/get that said so.
    assert.equal(getResults(s.exchanges).at(-1).status, 'input_required');

    assert.equal(withdrawn, false);
    await execution.cancel(AbortSignal.timeout(REQUEST_MS));
    assert.equal(withdrawn, true, 'the acknowledged cancel withdraws the open question');
    const cancels = byMethod(s.exchanges, 'tasks/cancel');
    assert.equal(cancels.length, 1);
    assert.deepEqual(Object.keys(cancels[0].response.result).filter((k) => k !== '_meta'), ['resultType']);
    const { outcome } = await settle(execution);
    assert.equal(outcome.status, 'cancelled');
    assert.equal(byMethod(s.exchanges, 'tasks/update').length, 0, 'no answer was sent');

    // The server's view, through a task controller (tasks/get): cancelled at once, and still
    // cancelled on later polls at the server's interval.
    const controller = s.session.task(created.taskId);
    for (let poll = 0; poll < 3; ++poll) {
      if (poll > 0) await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
      const view = await controller.snapshot(AbortSignal.timeout(REQUEST_MS));
      assert.equal(view.status, 'cancelled', `poll ${poll}`);
      assert.equal(view.raw.inputRequests, undefined);
      assert.equal(view.raw.result, undefined);
    }
    const outcomeAfter = await controller.result({ signal: AbortSignal.timeout(SETTLE_MS) });
    assert.equal(outcomeAfter.status, 'cancelled');
    checkTaskRequests(s.exchanges, s.posts, created.taskId);
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});

test('greet is never a task: the session gets its result at once', { timeout: TEST_MS }, async () => {
  const s = await openSession(() => assert.fail('greet asks nothing'));
  try {
    const execution = await s.session.callTool('greet', { name: 'Ada' });
    assert.equal(execution.kind, 'immediate');
    const { outcome } = await settle(execution);
    assert.equal(outcome.status, 'completed');
    const result = resultFromTaskOutcome(outcome);
    assert.deepEqual(result.content, [{ type: 'text', text: 'Hello, Ada!' }]);
    const [call] = byMethod(s.exchanges, 'tools/call');
    assert.equal(call.response.result.resultType, 'complete');
    assert.equal(byMethod(s.exchanges, 'tasks/get').length, 0);
  } finally {
    await s.close();
  }
});

test('slow_compute as a task: working, then completed with its result', { timeout: TEST_MS }, async () => {
  const s = await openSession(() => assert.fail('slow_compute asks nothing'));
  try {
    const execution = await s.session.callTool('slow_compute', { seconds: 0.5, label: 'e2e' }, { task: { preference: 'require' } });
    assert.equal(execution.kind, 'task');
    const created = createdTask(s.exchanges, 'slow_compute', { seconds: 0.5, label: 'e2e' });
    const { outcome, statuses } = await settle(execution);
    assert.equal(outcome.status, 'completed');
    const result = resultFromTaskOutcome(outcome);
    assert.deepEqual(result.content, [{ type: 'text', text: 'computed e2e in 0.500000 s' }]);
    assert.equal(result.isError, undefined);
    assert.ok(statuses.every((st) => st === 'working' || st === 'completed'), `statuses: ${statuses}`);
    assert.equal(statuses.at(-1), 'completed');
    assert.equal(s.asked.length, 0);
    assert.equal(byMethod(s.exchanges, 'tasks/update').length, 0);
    checkTaskRequests(s.exchanges, s.posts, created.taskId);
  } finally {
    await s.close();
  }
});

test('failing_job: a tool error completes the task with isError (tasks.md: failed is for JSON-RPC errors only)', { timeout: TEST_MS }, async () => {
  const s = await openSession(() => assert.fail('failing_job asks nothing'));
  try {
    const execution = await s.session.callTool('failing_job', {}, { task: { preference: 'require' } });
    const created = createdTask(s.exchanges, 'failing_job', {});
    const { outcome } = await settle(execution);
    assert.equal(outcome.status, 'completed');
    const result = resultFromTaskOutcome(outcome);
    assert.equal(result.isError, true);
    assert.deepEqual(result.content, [{ type: 'text', text: 'the job failed' }]);
    const done = getResults(s.exchanges).at(-1);
    assert.equal(done.status, 'completed');
    assert.equal(done.error, undefined);
    checkTaskRequests(s.exchanges, s.posts, created.taskId);
  } finally {
    await s.close();
  }
});

test('protocol_error_job: a JSON-RPC error fails the task, and the error comes through', { timeout: TEST_MS }, async () => {
  const s = await openSession(() => assert.fail('protocol_error_job asks nothing'));
  try {
    const execution = await s.session.callTool('protocol_error_job', {}, { task: { preference: 'require' } });
    const created = createdTask(s.exchanges, 'protocol_error_job', {});
    const { outcome, lastTask } = await settle(execution);
    assert.equal(outcome.status, 'failed');
    assert.ok(outcome.error instanceof TaskFailedError);
    assert.equal(outcome.error.code, -32603);
    assert.equal(outcome.error.message, 'the job hit a protocol error');
    assert.equal(lastTask.status, 'failed');
    assert.throws(() => resultFromTaskOutcome(outcome), TaskFailedError);
    const failed = getResults(s.exchanges).at(-1);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.code, -32603);
    assert.equal(failed.error.message, 'the job hit a protocol error');
    assert.equal(failed.result, undefined);
    checkTaskRequests(s.exchanges, s.posts, created.taskId);
  } finally {
    await s.close();
  }
});
