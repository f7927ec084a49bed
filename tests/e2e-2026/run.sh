#!/usr/bin/env bash
# Runs the modern-era (2026-07-28) end-to-end tests of the MCP TypeScript SDK 2.x client against the
# Streamable HTTP sample server on a free loopback port; installs the pinned client and Node 22
# (package-lock.json) first when they are missing, and always stops the server.
# Usage: run.sh <elicitgen_http_server>
set -euo pipefail
[[ $# -eq 1 && -x $1 ]] || { echo "usage: $0 <elicitgen_http_server>" >&2; exit 2; }
server_bin=$(realpath "$1")
cd "$(dirname "$0")"
if [[ ! -x node_modules/.bin/node || ! -d node_modules/@modelcontextprotocol/client ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
node22=node_modules/.bin/node

url_file=$(mktemp)
"$server_bin" --port 0 >"$url_file" &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -f "$url_file"' EXIT
for _ in $(seq 1200); do [[ -s $url_file ]] && break; sleep 0.05; done  # up to 60 s (sanitizers, busy machine)
[[ -s $url_file ]] || { echo "the server printed no URL within 60 s" >&2; exit 1; }
url=$(head -n1 "$url_file")
echo "server: $url ($("$node22" --version))"
ELICITGEN_HTTP_URL=$url "$node22" --test e2e.test.mjs surface.test.mjs
