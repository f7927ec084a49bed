#!/usr/bin/env bash
# Runs the official MCP conformance scenarios (npm @modelcontextprotocol/conformance, on Node 22
# from npm package node@22, both pinned in package-lock.json) against the Streamable HTTP sample
# server on a free loopback port: every server scenario it lists. Every check of every scenario must
# pass; there is no expected-failures file. Usage: run.sh <elicitgen_http_server>
set -euo pipefail
cd "$(dirname "$0")"
if [[ ! -x node_modules/.bin/node || ! -d node_modules/@modelcontextprotocol/conformance ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
node22=node_modules/.bin/node
conformance=node_modules/@modelcontextprotocol/conformance/dist/index.js
# Every server scenario the pinned suite lists for 2025-06-18/2025-11-25 (`list --server`).
mapfile -t scenarios < <("$node22" "$conformance" list --server | sed -n 's/^  - \([a-z0-9-]*\) .*/\1/p')
[[ ${#scenarios[@]} -ge 32 ]] || { echo "conformance list --server gave ${#scenarios[@]} scenarios" >&2; exit 1; }

url_file=$(mktemp)
"$1" --port 0 >"$url_file" &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -f "$url_file"' EXIT
for _ in $(seq 1200); do [[ -s $url_file ]] && break; sleep 0.05; done  # up to 60 s: a sanitized build on a busy machine starts slowly
url=$(head -n1 "$url_file")
[[ -n $url ]] || { echo "the server printed no endpoint URL within 60 s" >&2; exit 1; }
echo "server: $url ($("$node22" --version))"

failed=0
for s in "${scenarios[@]}"; do
  out=$("$node22" "$conformance" server --url "$url" --scenario "$s" 2>&1) || true
  summary=$(grep -E '^Passed: [0-9]+/[0-9]+' <<<"$out" | tail -n1)
  echo "$s: ${summary:-no summary}"
  # Every check passes, and no warning either (e.g. server-sse-polling's priming event and retry).
  if [[ ! $summary =~ ^Passed:\ ([0-9]+)/([0-9]+),\ 0\ failed ]] || [[ ${BASH_REMATCH[1]} != "${BASH_REMATCH[2]}" ]] ||
     [[ $summary =~ [1-9][0-9]*\ warning ]]; then
    failed=$((failed + 1))
    echo "$out"
  fi
done
echo "$(( ${#scenarios[@]} - failed )) passed, $failed failed"
exit $(( failed > 0 ))
