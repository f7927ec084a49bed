#!/usr/bin/env bash
# The official MCP conformance suite's SERVER scenarios (npm @modelcontextprotocol/conformance on
# Node 22 from the npm package node@22) against the Streamable HTTP sample server on a free loopback
# port, at one protocol revision. Each revision's directory pins its suite in package-lock.json
# (installed with `npm ci` when missing); the pins differ on purpose:
#   2025-11-25  0.1.16: every server scenario it lists (`list --server`, 2025-06-18/2025-11-25), one
#               at a time; every check of every scenario must pass with no warning.
#   2026-07-28  0.2.0-alpha.12 with the frozen 2026-07-28 requirement set (`server --requirements
#               2026-07-28`: every scenario stateless, per-request _meta): every scored scenario must
#               pass with no failed check and no warning (summarize.mjs decides), and so must three
#               pending ones this server passes (http-header-validation, http-custom-header-server-
#               validation, json-schema-2020-12) and the ten of the tasks extension (tasks-*: SEP-2663,
#               io.modelcontextprotocol/tasks; tasks-status-notifications is SKIPPED by the suite
#               itself, "pending subscriptions/listen rewrite", and passes with no check).
#               SCENARIOS.md says what each scenario sends and checks. With patterns (shell globs,
#               e.g. 'input-required-result-*' server-stateless), only the scored scenarios they
#               match must pass; CONFORMANCE_LOG=path keeps the suite's own output on failure.
# There is no expected-failures file. `--list` prints the scenarios held to, one per line with its
# kind (scored, pending, extension), and runs none.
# Usage: [CONFORMANCE_LOG=path] server.sh 2025-11-25|2026-07-28 <elicitgen_http_server> [SCENARIO-PATTERN...]
#        server.sh --list 2025-11-25|2026-07-28
set -euo pipefail
usage() {
  echo "usage: $0 2025-11-25|2026-07-28 <elicitgen_http_server> [SCENARIO-PATTERN...] | --list REVISION" >&2
  exit 2
}
list=false
patterns=()
if [[ ${1:-} == --list ]]; then
  [[ $# -eq 2 ]] || usage
  list=true
  revision=$2
else
  [[ $# -ge 2 && -x $2 ]] || usage
  revision=$1
  server_bin=$(realpath "$2")
  shift 2
  patterns=("$@")
fi
[[ $revision == 2025-11-25 || $revision == 2026-07-28 ]] || usage
[[ $revision == 2026-07-28 || ${#patterns[@]} -eq 0 ]] || usage  # patterns: 2026-07-28 only
keep_log=${CONFORMANCE_LOG:+$(realpath -m "$CONFORMANCE_LOG")}  # where to keep the suite's output on failure
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/$revision"
if [[ ! -x node_modules/.bin/node || ! -d node_modules/@modelcontextprotocol/conformance ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
node22=node_modules/.bin/node
conformance=node_modules/@modelcontextprotocol/conformance/dist/index.js

if [[ $revision == 2025-11-25 ]]; then
  # Every server scenario the pinned suite lists for 2025-06-18/2025-11-25 (`list --server`).
  mapfile -t scenarios < <("$node22" "$conformance" list --server | sed -n 's/^  - \([a-z0-9-]*\) .*/\1/p')
  [[ ${#scenarios[@]} -ge 32 ]] || { echo "conformance list --server gave ${#scenarios[@]} scenarios" >&2; exit 1; }
  if $list; then
    printf 'scored %s\n' "${scenarios[@]}"
    exit 0
  fi
else
  requirements=node_modules/@modelcontextprotocol/conformance/requirements/2026-07-28.yaml
  # The scored server scenarios: the `server:` list of the frozen requirement file.
  mapfile -t scored < <(awk '/^server:/ {f = 1; next} /^[a-z_]+:/ {f = 0} f && /^  - / {print $2}' "$requirements")
  (( ${#scored[@]} > 0 )) || { echo "no server scenarios in $requirements" >&2; exit 1; }
  # Pending (not scored) scenarios this server passes in full, and those of the tasks extension:
  # held to it like the scored ones, so a regression fails here too.
  pending=(http-header-validation http-custom-header-server-validation json-schema-2020-12)
  extension=(tasks-lifecycle tasks-capability-negotiation tasks-wire-fields tasks-request-state-removal
    tasks-mrtr-input tasks-request-headers tasks-dispatch-and-envelope tasks-status-notifications
    tasks-required-task-error tasks-mrtr-composition)
  if $list; then
    printf 'scored %s\n' "${scored[@]}"
    printf 'pending %s\n' "${pending[@]}"
    printf 'extension %s\n' "${extension[@]}"
    exit 0
  fi
  scored+=("${pending[@]}" "${extension[@]}")
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
fi

url_file=$(mktemp)
results=$(mktemp -d)
"$server_bin" --port 0 >"$url_file" &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$url_file" "$results"' EXIT
for _ in $(seq 1200); do [[ -s $url_file ]] && break; sleep 0.05; done  # up to 60 s: a sanitized build on a busy machine starts slowly
url=$(head -n1 "$url_file")
[[ -n $url ]] || { echo "the server printed no endpoint URL within 60 s" >&2; exit 1; }

if [[ $revision == 2025-11-25 ]]; then
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
fi

echo "server: $url ($("$node22" --version), ${#scored[@]} scored scenarios)"
start=$SECONDS
# The suite's own exit code counts failures of scored scenarios only, not warnings: summarize.mjs
# decides. The suite's own console output (its summary) is kept only with CONFORMANCE_LOG=path.
log="$results/conformance.log"
"$node22" "$conformance" server --url "$url" --requirements 2026-07-28 -o "$results" >"$log" 2>&1 && suite=0 || suite=$?
echo "suite: exit $suite after $((SECONDS - start)) s"
if "$node22" "$here/summarize.mjs" "$results" "${scored[@]}"; then
  exit 0
fi
if [[ -n $keep_log ]]; then cp "$log" "$keep_log"; echo "suite output: $keep_log"; fi
exit 1
