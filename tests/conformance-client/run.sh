#!/usr/bin/env bash
# Runs the official MCP conformance suite's CLIENT scenarios against elicit::Client: the suite
# starts its test server and runs `conformance_client <url>` (tests/conformance-client/
# conformance_client.cpp) with MCP_CONFORMANCE_SCENARIO set. The suites are the pinned packages of
# tests/conformance (0.1.16) and tests/conformance-2026 (0.2.0-alpha.12), Node 22 from npm, each
# installed with `npm ci` from its own lock file when missing. Every check of every scenario must
# pass with no warning, and the client must exit 0; there is no expected-failures file.
# Usage: run.sh <conformance_client> [2025-11-25|2026-07-28|all]
set -euo pipefail
client=$(realpath "$1")
which=${2:-all}
here=$(cd "$(dirname "$0")/.." && pwd)

# Each run: the package directory, the scenario, the protocol version the suite's server speaks
# ("-": the suite's default, 2025-11-25 for these). 0.2.0-alpha.12 runs one scenario at a version
# with --spec-version (its --requirements runs the whole set, auth scenarios included, and cannot
# name one scenario).
runs=()
if [[ $which == all || $which == 2025-11-25 ]]; then
  runs+=("conformance initialize -" "conformance tools_call -" "conformance elicitation-sep1034-client-defaults -")
fi
if [[ $which == all || $which == 2026-07-28 ]]; then
  runs+=("conformance-2026 initialize 2025-11-25" "conformance-2026 tools_call 2025-11-25"
         "conformance-2026 elicitation-sep1034-client-defaults 2025-11-25"
         "conformance-2026 json-schema-2020-12-preservation 2025-11-25"
         "conformance-2026 tools_call 2026-07-28" "conformance-2026 request-metadata 2026-07-28"
         "conformance-2026 sep-2322-client-request-state 2026-07-28"
         "conformance-2026 http-standard-headers 2026-07-28" "conformance-2026 json-schema-ref-no-deref 2026-07-28"
         "conformance-2026 json-schema-2020-12-preservation 2026-07-28")
fi
[[ ${#runs[@]} -gt 0 ]] || { echo "usage: run.sh <conformance_client> [2025-11-25|2026-07-28|all]" >&2; exit 2; }

failed=0
for run in "${runs[@]}"; do
  read -r dir scenario version <<<"$run"
  pkg=$here/$dir
  if [[ ! -x $pkg/node_modules/.bin/node || ! -d $pkg/node_modules/@modelcontextprotocol/conformance ]]; then
    (cd "$pkg" && npm ci --no-audit --no-fund --loglevel=error)
  fi
  args=(client --command "$client" --scenario "$scenario")
  [[ $version == - ]] || args+=(--spec-version "$version")
  status=0
  out=$(cd "$pkg" && node_modules/.bin/node node_modules/@modelcontextprotocol/conformance/dist/index.js "${args[@]}" 2>&1) ||
    status=$?
  summary=$(grep -E '^Passed: [0-9]+/[0-9]+' <<<"$out" | tail -n1)
  suite=$(sed -n 's|.*"@modelcontextprotocol/conformance": "\([^"]*\)".*|\1|p' "$pkg/package.json")
  shown=$version
  [[ $shown != - ]] || shown=2025-11-25
  echo "$scenario ($suite, $shown): ${summary:-no summary}"
  # All checks pass (at least one), none warns, the suite exits 0 and does not report that the
  # client failed, exited with an error or timed out.
  if [[ $status != 0 || ! $summary =~ ^Passed:\ ([0-9]+)/([0-9]+),\ 0\ failed,\ 0\ warnings ]] ||
     [[ ${BASH_REMATCH[1]} != "${BASH_REMATCH[2]}" || ${BASH_REMATCH[1]} == 0 ]] ||
     grep -qE 'CLIENT (TIMED OUT|EXITED WITH ERROR)|SKIPPED: scenario' <<<"$out"; then
    failed=$((failed + 1))
    echo "$out"
  fi
done
echo "$(( ${#runs[@]} - failed )) passed, $failed failed"
exit $(( failed > 0 ))
