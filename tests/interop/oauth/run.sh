#!/usr/bin/env bash
# OAuth 2.1 end to end: a real authorization server (oidc-provider, authorization-server.mjs) issues
# RFC 9068 JWT access tokens for the protected Streamable HTTP sample server (--authorization-server,
# --resource, --scope mcp), and the official MCP TypeScript SDK client runs the whole flow with its
# OAuth client provider (401 → protected resource metadata → authorization server metadata → dynamic
# registration → authorization code + PKCE, login and consent headless → token) before a tool call
# that elicits a form. One protocol revision per run:
#   2025-11-25  @modelcontextprotocol/sdk 1.32.2 (initialize, sessions)   e2e-2025-11-25.test.mjs
#   2026-07-28  @modelcontextprotocol/client 2.4.0 (server/discover)      e2e-2026-07-28.test.mjs
# package-lock.json pins them, oidc-provider and Node 22 (`npm ci` when node_modules is missing).
# With a third argument, the same servers face that program instead of the SDK: our own C++ client
# (oauth_client_e2e, elicit::Client and its OAuth client), with the same environment plus
# ELICITGEN_PROTOCOL_VERSION and ELICITGEN_MCP_SERVER (elicitgen or typescript, below).
# With `typescript` in place of the server binary, the MCP server is the official TypeScript SDK 1.x
# behind its own requireBearerAuth middleware (typescript-protected-server.mjs, same command line):
# 2025-11-25 only, and only with a client program (the SDK against itself is not what is tested).
# Both servers run on loopback and are always stopped; every wait is bounded.
# With `forms` as the third argument: the browser form pages' sign-in (forms-sign-in.test.mjs): the
# MCP server serves /forms/ signing browsers in at the same authorization server (--forms-client-id
# elicitgen-e2e-forms, a client authorization-server.mjs registers with the pages' redirect URI).
# Usage: run.sh 2025-11-25|2026-07-28 <elicitgen_http_server> [<oauth_client_e2e>|forms]
#        run.sh 2025-11-25 typescript <oauth_client_e2e>
set -euo pipefail
usage() {
  echo "usage: $0 2025-11-25|2026-07-28 <elicitgen_http_server> [<oauth_client_e2e>]" >&2
  echo "       $0 2025-11-25 typescript <oauth_client_e2e>" >&2
  exit 2
}
forms=
if [[ ${2:-} == typescript ]]; then
  [[ $# -eq 3 && -x $3 && $1 == 2025-11-25 ]] || usage
elif [[ ${3:-} == forms ]]; then
  [[ $# -eq 3 && -x ${2:-} ]] || usage
  forms=1
else
  [[ ($# -eq 2 || ($# -eq 3 && -x ${3:-})) && -x ${2:-} ]] || usage
fi
revision=$1
case "$revision" in
  2025-11-25) sdk=@modelcontextprotocol/sdk ;;
  2026-07-28) sdk=@modelcontextprotocol/client ;;
  *) usage ;;
esac
server_kind=elicitgen
server_bin=
if [[ $2 == typescript ]]; then server_kind=typescript; else server_bin=$(realpath "$2"); fi
client_bin=
[[ $# -eq 3 && -z $forms ]] && client_bin=$(realpath "$3")
cd "$(dirname "$0")"
node=node_modules/.bin/node
if [[ ! -d node_modules/$sdk || ! -d node_modules/oidc-provider || ! -x $node ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# Waits up to 60 s (sanitizers, a busy machine) for a process to print its first line into a file;
# fails at once when the process exits first.
first_line() {
  local file=$1 pid=$2
  for _ in $(seq 1200); do
    [[ -s $file ]] && { head -n1 "$file"; return; }
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.05
  done
  return 1
}

# The MCP server's port must be known before either server starts: it is in the resource URL that
# the authorization server issues tokens for and that the MCP server checks as the audience. A free
# port is picked and released, so another process may take it first: then both start again on a new
# one, three times at most.
secret=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
url=
for attempt in 1 2 3; do
  port=$("$node" -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
  resource="http://127.0.0.1:$port/mcp"
  other="http://127.0.0.1:$port/other"
  MCP_RESOURCE=$resource OTHER_RESOURCE=$other SERVICE_CLIENT_SECRET=$secret \
    FORMS_REDIRECT_URI="http://127.0.0.1:$port/forms/sign-in" \
    "$node" authorization-server.mjs >"$work/as.out" 2>"$work/as.err" &
  as=$!
  pids+=($as)
  if ! issuer=$(first_line "$work/as.out" $as); then
    echo "the authorization server did not start within 60 s:" >&2
    cat "$work/as.err" >&2
    exit 1
  fi
  server=("$server_bin")
  [[ $server_kind == typescript ]] && server=("$node" typescript-protected-server.mjs)
  [[ -n $forms ]] && server+=(--forms-client-id elicitgen-e2e-forms)
  "${server[@]}" --port "$port" --authorization-server "$issuer" --resource "$resource" --scope mcp \
    >"$work/mcp.out" 2>"$work/mcp.err" &
  mcp=$!
  pids+=($mcp)
  if url=$(first_line "$work/mcp.out" $mcp); then break; fi
  echo "attempt $attempt: the MCP server did not start on port $port:" >&2
  cat "$work/mcp.err" >&2
  kill $as $mcp 2>/dev/null || true
  wait $as $mcp 2>/dev/null || true
  url=
done
[[ -n $url ]] || exit 1
[[ $url == "$resource" ]] || { echo "the MCP server listens at $url, not $resource" >&2; exit 1; }
echo "authorization server: $issuer (oidc-provider $("$node" -p "require('./node_modules/oidc-provider/package.json').version"))"
if [[ $server_kind == typescript ]]; then
  echo "MCP server: $url ($revision, @modelcontextprotocol/sdk $("$node" -p "require('./node_modules/@modelcontextprotocol/sdk/package.json').version") with requireBearerAuth, client $(basename "$client_bin"), node $("$node" --version))"
elif [[ -n $client_bin ]]; then
  echo "MCP server: $url ($revision, client $(basename "$client_bin"), node $("$node" --version))"
else
  echo "MCP server: $url ($revision, $sdk $("$node" -p "require('./node_modules/$sdk/package.json').version"), node $("$node" --version))"
fi

status=0
if [[ -n $forms ]]; then
  ELICITGEN_HTTP_URL=$url OAUTH_ISSUER=$issuer OTHER_RESOURCE=$other SERVICE_CLIENT_SECRET=$secret \
    ELICITGEN_PROTOCOL_VERSION=$revision "$node" --test --test-timeout=120000 forms-sign-in.test.mjs || status=$?
elif [[ -n $client_bin ]]; then
  # Its own bounds: each fetch 10 s, each MCP request 60 s; CTest's TIMEOUT above all.
  ELICITGEN_HTTP_URL=$url OAUTH_ISSUER=$issuer ELICITGEN_PROTOCOL_VERSION=$revision ELICITGEN_MCP_SERVER=$server_kind \
    "$client_bin" || status=$?
else
  ELICITGEN_HTTP_URL=$url OAUTH_ISSUER=$issuer OTHER_RESOURCE=$other \
    SERVICE_CLIENT_SECRET=$secret "$node" --test --test-timeout=120000 "e2e-$revision.test.mjs" || status=$?
fi
# The MCP server stops cleanly on SIGTERM (exit 0; under the sanitizers, no report at exit): up to 10 s.
kill -TERM $mcp 2>/dev/null || true
for _ in $(seq 200); do kill -0 $mcp 2>/dev/null || break; sleep 0.05; done
if kill -0 $mcp 2>/dev/null; then
  echo "the MCP server did not stop within 10 s of SIGTERM" >&2
  status=1
else
  mcp_status=0
  wait $mcp || mcp_status=$?
  if [[ $mcp_status -ne 0 ]]; then
    echo "the MCP server exited with $mcp_status after SIGTERM" >&2
    status=1
  fi
fi
if [[ $status -ne 0 ]]; then
  echo "--- authorization server stderr" >&2; cat "$work/as.err" >&2 || true
  echo "--- MCP server stderr" >&2; cat "$work/mcp.err" >&2 || true
fi
exit $status
