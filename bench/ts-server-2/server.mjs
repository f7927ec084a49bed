// The official TypeScript SDK 2.x (@modelcontextprotocol/server, pinned in package-lock.json) serving
// MCP 2026-07-28 over stateless Streamable HTTP, with one tool shaped like elicitgen's sample
// `github_username`: it asks for {name: string, required} through the SDK's multi-round-trip API
// (`inputRequired({inputRequests: {github: inputRequired.elicit(...)}})`, read back on the retry
// with `acceptedContent(ctx.mcpReq.inputResponses, 'github', schema)`) and answers
// `accept: {"name":"..."}`. scripts/bench.sh drives it with `elicit_http_load modern`.
//
// Serving is the SDK's recommended stateless entry: `createMcpHandler(factory, {legacy: 'reject'})`
// (a fresh McpServer per HTTP request, modern era only) mounted on node:http with
// `toNodeHandler` and the Host / Origin guards of @modelcontextprotocol/node.
//
//   node server.mjs [--state] [--sse]
//     --state: also mint a requestState with the SDK's HMAC-SHA256 codec (createRequestStateCodec,
//              bound to method + tool) on the first round and verify it on the retry
//              (ServerOptions.requestState.verify), the work closest to elicitgen's sealed state.
//     --sse:   answer every request as an SSE stream (responseMode 'sse'; default 'auto', which
//              answers this tool with one JSON body).
// Listens on 127.0.0.1:$PORT (a free port if unset) and prints its endpoint URL as the first line
// of stdout.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import {
  acceptedContent,
  createMcpHandler,
  createRequestStateCodec,
  inputRequired,
  McpServer,
} from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

const withState = process.argv.includes('--state');
const responseMode = process.argv.includes('--sse') ? 'sse' : 'auto';
const codec = withState
  ? createRequestStateCodec({ key: randomBytes(32), bind: (ctx) => `${ctx.mcpReq.method}\0github_username` })
  : undefined;

const usernameSchema = z.object({ name: z.string() });
const message = 'Please provide your GitHub username';

function factory() {
  const server = new McpServer(
    { name: 'ts-sdk-2-bench', version: '1.0.0' },
    codec ? { requestState: { verify: codec.verify } } : {},
  );
  server.registerTool(
    'github_username',
    { description: 'Asks for a GitHub username', inputSchema: z.object({}) },
    async (_args, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'github', usernameSchema);
      if (answer === undefined) {
        return inputRequired({
          inputRequests: { github: inputRequired.elicit({ message, requestedSchema: usernameSchema }) },
          ...(codec ? { requestState: await codec.mint({ asked: ['github'] }, ctx) } : {}),
        });
      }
      if (codec && ctx.mcpReq.requestState()?.asked?.[0] !== 'github') {
        throw new Error('requestState did not verify');
      }
      return { content: [{ type: 'text', text: `accept: ${JSON.stringify({ name: answer.name })}` }] };
    },
  );
  return server;
}

const handler = createMcpHandler(factory, { legacy: 'reject', responseMode });
const node = toNodeHandler(handler);
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();

const http = createServer((req, res) => {
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  node(req, res);
});
http.keepAliveTimeout = 60_000;
http.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`);
});
const stop = () => {
  http.close();
  http.closeAllConnections();
  handler.close().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
