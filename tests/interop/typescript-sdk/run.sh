#!/usr/bin/env bash
# The official MCP TypeScript SDK's client end to end against a sample server, at one protocol
# revision; each revision's directory pins its SDK (package-lock.json, installed with `npm ci` when
# missing) and holds its tests (e2e.test.mjs: elicitation; surface.test.mjs: prompts, completions,
# resources, list changes, logging, progress):
#   2025-11-25  @modelcontextprotocol/sdk 1.32.2 (the 1.x client, initialize and sessions), on the
#               system's node, over stdio (the stdio sample server, spawned per test) or Streamable HTTP
#   2026-07-28  @modelcontextprotocol/client 2.4.0 (the 2.x client pinned to 2026-07-28: server/discover,
#               stateless requests, input_required rounds), on Node 22 from npm, over Streamable HTTP;
#               2026-07-28/README.md says what each test needs
# The two are different packages with different APIs, so each revision keeps its own pin and tests.
# A Streamable HTTP server runs on a free loopback port and is always stopped.
# Usage: run.sh 2025-11-25 stdio <elicitgen_stdio_server>
#        run.sh 2025-11-25|2026-07-28 http <elicitgen_http_server>
set -euo pipefail
usage() {
  echo "usage: $0 2025-11-25 stdio <elicitgen_stdio_server> | $0 2025-11-25|2026-07-28 http <elicitgen_http_server>" >&2
  exit 2
}
[[ $# -eq 3 && -x $3 ]] || usage
revision=$1 transport=$2
server_bin=$(realpath "$3")
case "$revision/$transport" in
  2025-11-25/stdio | 2025-11-25/http) sdk=@modelcontextprotocol/sdk node=node ;;
  2026-07-28/http) sdk=@modelcontextprotocol/client node=node_modules/.bin/node ;;
  *) usage ;;
esac
source "$(dirname "$0")/../http_server.sh"
cd "$(dirname "$0")/$revision"
if [[ ! -d node_modules/$sdk || ($node != node && ! -x $node) ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi

if [[ $transport == stdio ]]; then
  ELICITGEN_STDIO_SERVER=$server_bin "$node" --test e2e.test.mjs surface.test.mjs
  exit
fi
start_http_server "$server_bin"
echo "server: $url ($revision, $("$node" --version))"
ELICITGEN_HTTP_URL=$url "$node" --test e2e.test.mjs surface.test.mjs
