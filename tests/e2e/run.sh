#!/usr/bin/env bash
# Runs the TypeScript SDK end-to-end tests against a sample server; installs the pinned SDK
# (package-lock.json) first when it is missing.
# Usage: run.sh stdio <elicitgen_stdio_server> | run.sh http <elicitgen_http_server>
set -euo pipefail
cd "$(dirname "$0")"
if [[ ! -d node_modules/@modelcontextprotocol/sdk ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
case "${1:-}" in
  stdio)
    ELICITGEN_STDIO_SERVER="$2" node --test e2e.test.mjs surface.test.mjs
    ;;
  http)
    url_file=$(mktemp)
    "$2" --port 0 >"$url_file" &
    server=$!
    trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -f "$url_file"' EXIT
    for _ in $(seq 1200); do [[ -s $url_file ]] && break; sleep 0.05; done  # up to 60 s (sanitizers, busy machine)
    ELICITGEN_HTTP_URL=$(head -n1 "$url_file") node --test e2e.test.mjs surface.test.mjs
    ;;
  *)
    echo "usage: $0 stdio|http <server binary>" >&2
    exit 2
    ;;
esac
