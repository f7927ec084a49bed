#!/usr/bin/env bash
# Runs the official MCP conformance suite (npm @modelcontextprotocol/conformance 0.2.0-alpha.12 on
# Node 22 from npm package node@22, both pinned in package-lock.json) with the frozen 2026-07-28
# requirement set (`server --requirements 2026-07-28`: every scenario stateless, per-request _meta)
# against the Streamable HTTP sample server on a free loopback port. Every scored scenario must pass
# with no failed check and no warning; the not-scored ones the set also runs (tasks extension,
# pending) are printed but do not count. SCENARIOS.md says what each scenario sends and checks.
# Usage: [CONFORMANCE_LOG=path] run.sh <elicitgen_http_server> [SCENARIO-PATTERN...]
# With patterns (shell globs, e.g. 'input-required-result-*' server-stateless), only the scored
# scenarios they match must pass; the others are reported and not counted.
set -euo pipefail
[[ $# -ge 1 && -x $1 ]] || { echo "usage: $0 <elicitgen_http_server> [SCENARIO-PATTERN...]" >&2; exit 2; }
server_bin=$(realpath "$1")
shift
patterns=("$@")
keep_log=${CONFORMANCE_LOG:+$(realpath -m "$CONFORMANCE_LOG")}  # where to keep the suite's output on failure
cd "$(dirname "$0")"
if [[ ! -x node_modules/.bin/node || ! -d node_modules/@modelcontextprotocol/conformance ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
node22=node_modules/.bin/node
conformance=node_modules/@modelcontextprotocol/conformance/dist/index.js
requirements=node_modules/@modelcontextprotocol/conformance/requirements/2026-07-28.yaml
# The scored server scenarios: the `server:` list of the frozen requirement file.
mapfile -t scored < <(awk '/^server:/ {f = 1; next} /^[a-z_]+:/ {f = 0} f && /^  - / {print $2}' "$requirements")
(( ${#scored[@]} > 0 )) || { echo "no server scenarios in $requirements" >&2; exit 1; }
if (( ${#patterns[@]} > 0 )); then
  selected=()
  for s in "${scored[@]}"; do
    for p in "${patterns[@]}"; do
      # shellcheck disable=SC2053  # a glob on purpose
      if [[ $s == $p ]]; then selected+=("$s"); break; fi
    done
  done
  (( ${#selected[@]} > 0 )) || { echo "no scored scenario matches: ${patterns[*]}" >&2; exit 2; }
  scored=("${selected[@]}")
fi

url_file=$(mktemp)
results=$(mktemp -d)
"$server_bin" --port 0 >"$url_file" &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$url_file" "$results"' EXIT
for _ in $(seq 1200); do [[ -s $url_file ]] && break; sleep 0.05; done  # up to 60 s: a sanitized build on a busy machine starts slowly
[[ -s $url_file ]] || { echo "the server printed no URL within 60 s" >&2; exit 1; }
url=$(head -n1 "$url_file")
echo "server: $url ($("$node22" --version), ${#scored[@]} scored scenarios)"

start=$SECONDS
# The suite's own exit code counts failures of scored scenarios only, not warnings: summarize.mjs
# decides. The suite's own console output (its summary) is kept only with CONFORMANCE_LOG=path.
log="$results/conformance.log"
"$node22" "$conformance" server --url "$url" --requirements 2026-07-28 -o "$results" >"$log" 2>&1 && suite=0 || suite=$?
echo "suite: exit $suite after $((SECONDS - start)) s"
if "$node22" summarize.mjs "$results" "${scored[@]}"; then
  exit 0
fi
if [[ -n $keep_log ]]; then cp "$log" "$keep_log"; echo "suite output: $keep_log"; fi
exit 1
