// The official MCP TypeScript SDK 1.x as a protected resource server: McpServer over Streamable HTTP
// (2025-11-25: initialize, sessions) behind the SDK's own requireBearerAuth middleware, with the
// Protected Resource Metadata route of its mcpAuthMetadataRouter, so that run.sh can put our C++
// OAuth client in front of someone else's resource server and the same real authorization server
// (authorization-server.mjs). The command line is elicitgen_http_server's, so run.sh starts either:
//
//   node typescript-protected-server.mjs --port P --authorization-server ISSUER --resource URL --scope S
//
// Prints its endpoint URL (http://127.0.0.1:P/mcp, which must be the resource) on stdout once
// listening; exits 0 on SIGTERM or SIGINT, 1 when it cannot start. Loopback only.
//
// Tools: github_username elicits a form (the same form and the same answer text as our sample
// server's tool of that name) and whoami, a plain one, answers with the token's `sub`, as the SDK
// handed it to the tool (extra.authInfo): what the middleware let through is what the tool sees.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import {
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

const fail = message => {
  console.error(`typescript-protected-server: ${message}`);
  process.exit(1);
};

const { values: args } = parseArgs({
  options: {
    port: { type: 'string' },
    'authorization-server': { type: 'string' },
    resource: { type: 'string' },
    scope: { type: 'string' }
  }
});
if (!args.port || !args['authorization-server'] || !args.resource || !args.scope) {
  fail('usage: --port P --authorization-server ISSUER --resource URL --scope S');
}
const issuer = args['authorization-server'];
const resource = new URL(args.resource);
const scopes = args.scope.split(' ');
if (resource.hostname !== '127.0.0.1') fail(`the resource must be on 127.0.0.1: ${resource}`);

// The authorization server's metadata (RFC 8414): its jwks_uri for the verifier, and the document
// that mcpAuthMetadataRouter insists on (it names the issuer in the protected resource metadata).
// Bounded: 10 s.
let oauthMetadata;
try {
  const response = await fetch(`${issuer}/.well-known/oauth-authorization-server`, {
    signal: AbortSignal.timeout(10000)
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  oauthMetadata = await response.json();
} catch (error) {
  fail(`no authorization server metadata at ${issuer}: ${error.message}`);
}
if (oauthMetadata.issuer !== issuer) fail(`the metadata names issuer ${oauthMetadata.issuer}, not ${issuer}`);

// The SDK leaves token verification to the application (OAuthTokenVerifier): here a local check of
// oidc-provider's RFC 9068 JWTs with jose (already in the SDK's dependency tree) against the issuer's
// JWKS (fetched on first use, each fetch bounded by 10 s): signature (ES256 only, so neither
// `alg: none` nor another algorithm passes), `typ: at+jwt`, `iss`, `aud` containing this resource,
// and `exp`. Every refusal is the SDK's InvalidTokenError (a plain Error would be its 500); its
// message goes into WWW-Authenticate's quoted error_description, so it carries jose's error code
// and the claim's name, never jose's message (which quotes the claim).
const jwks = createRemoteJWKSet(new URL(oauthMetadata.jwks_uri), { timeoutDuration: 10000 });
const verifier = {
  async verifyAccessToken(token) {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        issuer,
        audience: resource.href,
        typ: 'at+jwt',
        algorithms: ['ES256'],
        requiredClaims: ['exp', 'client_id']
      }));
    } catch (error) {
      throw new InvalidTokenError(`refused: ${error.code ?? 'ERR_JWT'}${error.claim ? ` (${error.claim})` : ''}`);
    }
    return {
      token,
      clientId: payload.client_id,
      scopes: typeof payload.scope === 'string' ? payload.scope.split(' ') : [],
      expiresAt: payload.exp,
      // jose checked that `aud` contains this resource; reported so that the middleware's own
      // expectedResource check (RFC 8707) runs too.
      resource,
      extra: { sub: payload.sub }
    };
  }
};

const server = () => {
  const mcp = new McpServer({ name: 'elicitgen-oauth-e2e-typescript-server', version: '1.0.0' });
  mcp.registerTool('github_username', { description: 'Asks for a GitHub username' }, async () => {
    const result = await mcp.server.elicitInput({
      mode: 'form',
      message: 'Please provide your GitHub username',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
    });
    const text = result.action === 'accept' ? `accept: ${JSON.stringify(result.content)}` : result.action;
    return { content: [{ type: 'text', text }] };
  });
  mcp.registerTool('whoami', { description: "The access token's subject" }, async extra => ({
    content: [{ type: 'text', text: String(extra.authInfo?.extra?.sub ?? '') }]
  }));
  return mcp;
};

const app = createMcpExpressApp({ host: '127.0.0.1' });
// GET /.well-known/oauth-protected-resource/mcp (RFC 9728, path-specific), plus the authorization
// server's metadata under this origin, as the router always adds.
app.use(
  mcpAuthMetadataRouter({
    oauthMetadata,
    resourceServerUrl: resource,
    scopesSupported: scopes,
    resourceName: 'elicitgen OAuth e2e (TypeScript SDK server)'
  })
);
const bearer = requireBearerAuth({
  verifier,
  requiredScopes: scopes,
  resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resource),
  expectedResource: resource
});

// One transport and one McpServer per session, as in the SDK's examples.
const sessions = new Map();
const path = resource.pathname;
app.post(path, bearer, async (req, res) => {
  const id = req.headers['mcp-session-id'];
  let transport = id ? sessions.get(id) : undefined;
  if (!transport) {
    if (id || !isInitializeRequest(req.body)) {
      res.status(id ? 404 : 400).json({
        jsonrpc: '2.0',
        error: { code: -32000, message: id ? 'Session not found' : 'No session and not initialize' },
        id: null
      });
      return;
    }
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: sid => sessions.set(sid, transport)
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server().connect(transport);
  }
  await transport.handleRequest(req, res, req.body);
});
// GET (the server's stream) and DELETE (end of session): the same middleware, an existing session.
const existing = async (req, res) => {
  const transport = sessions.get(req.headers['mcp-session-id']);
  if (!transport) {
    res.status(404).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Session not found' }, id: null });
    return;
  }
  await transport.handleRequest(req, res);
};
app.get(path, bearer, existing);
app.delete(path, bearer, existing);

const listener = app.listen(Number(args.port), '127.0.0.1', error => {
  if (error) fail(`cannot listen on 127.0.0.1:${args.port}: ${error.message}`);
  console.log(`http://127.0.0.1:${listener.address().port}${path}`);
});
listener.on('error', error => fail(`cannot listen on 127.0.0.1:${args.port}: ${error.message}`));

// Stops at once: open streams (the GET stream of a session) are cut rather than waited for.
const stop = () => {
  for (const transport of sessions.values()) transport.close().catch(() => {});
  listener.closeAllConnections();
  listener.close(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
