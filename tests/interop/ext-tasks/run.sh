#!/usr/bin/env bash
# The official Tasks extension client, @modelcontextprotocol/ext-tasks 0.2.2 (with its peer
# @modelcontextprotocol/client 2.4.0, pinned to protocol revision 2026-07-28), end to end against the
# Streamable HTTP sample server's task fixtures, on Node 22 from npm (the `node` package, 22.23.3).
# package-lock.json pins them all; `npm ci` installs them when node_modules is missing. The server runs
# on a free loopback port and is always stopped. README.md says what tasks.test.mjs checks.
# Usage: run.sh <elicitgen_http_server>
set -euo pipefail
[[ $# -eq 1 && -x $1 ]] || { echo "usage: $0 <elicitgen_http_server>" >&2; exit 2; }
server_bin=$(realpath "$1")
source "$(dirname "$0")/../http_server.sh"
cd "$(dirname "$0")"
node=node_modules/.bin/node
if [[ ! -d node_modules/@modelcontextprotocol/ext-tasks || ! -d node_modules/@modelcontextprotocol/client || ! -x $node ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi

start_http_server "$server_bin"
echo "server: $url (2026-07-28, @modelcontextprotocol/ext-tasks $("$node" -p "require('./node_modules/@modelcontextprotocol/ext-tasks/package.json').version"), @modelcontextprotocol/client $("$node" -p "require('./node_modules/@modelcontextprotocol/client/package.json').version"), node $("$node" --version))"
ELICITGEN_HTTP_URL=$url "$node" --test tasks.test.mjs
