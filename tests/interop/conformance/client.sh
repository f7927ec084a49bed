#!/usr/bin/env bash
# The official MCP conformance suite's CLIENT scenarios against elicit::Client: the suite starts its
# test server and runs `conformance_client <url>` (conformance_client.cpp, elicit::Client over
# Streamable HTTP) with MCP_CONFORMANCE_SCENARIO set. REVISION names the pinned suite, as server.sh
# does: 2025-11-25 is 0.1.16 (its scenarios at 2025-11-25), 2026-07-28 is 0.2.0-alpha.12, played at
# both protocol versions (the 2025-11-25 scenarios that version also has, then the 2026-07-28 ones);
# `all` runs both. Node 22 from npm; each suite is installed with `npm ci` from its own lock file when
# missing. Every check of every scenario must pass with no warning, and the client must exit 0;
# there is no expected-failures file.
# `--list` prints the runs (suite directory, scenario, protocol version) and plays none.
# Usage: client.sh 2025-11-25|2026-07-28|all <conformance_client>
#        client.sh --list 2025-11-25|2026-07-28|all
set -euo pipefail
usage() {
  echo "usage: $0 2025-11-25|2026-07-28|all <conformance_client> | --list 2025-11-25|2026-07-28|all" >&2
  exit 2
}
list=false
if [[ ${1:-} == --list ]]; then
  [[ $# -eq 2 ]] || usage
  list=true
  which=$2
else
  [[ $# -eq 2 && -x $2 ]] || usage
  which=$1
  client=$(realpath "$2")
fi
here=$(cd "$(dirname "$0")" && pwd)

# Each run: the pinned suite's directory, the scenario, the protocol version the suite's server speaks
# ("-": the suite's default, 2025-11-25 for these). 0.2.0-alpha.12 runs one scenario at a version
# with --spec-version (its --requirements runs the whole set, auth scenarios included, and cannot
# name one scenario).
runs=()
if [[ $which == all || $which == 2025-11-25 ]]; then
  runs+=("2025-11-25 initialize -" "2025-11-25 tools_call -" "2025-11-25 elicitation-sep1034-client-defaults -"
         "2025-11-25 sse-retry -")
fi
if [[ $which == all || $which == 2026-07-28 ]]; then
  runs+=("2026-07-28 initialize 2025-11-25" "2026-07-28 tools_call 2025-11-25"
         "2026-07-28 elicitation-sep1034-client-defaults 2025-11-25"
         "2026-07-28 json-schema-2020-12-preservation 2025-11-25" "2026-07-28 sse-retry 2025-11-25"
         "2026-07-28 tools_call 2026-07-28" "2026-07-28 request-metadata 2026-07-28"
         "2026-07-28 sep-2322-client-request-state 2026-07-28"
         "2026-07-28 http-standard-headers 2026-07-28" "2026-07-28 json-schema-ref-no-deref 2026-07-28"
         "2026-07-28 json-schema-2020-12-preservation 2026-07-28"
         "2026-07-28 http-custom-headers 2026-07-28" "2026-07-28 http-invalid-tool-headers 2026-07-28")
fi
# Authorization (the auth/* scenarios; the suite plays the authorization server and the protected
# MCP server). 0.1.16: its 2025-11-25 set, the three drafts, the 2025-03-26 back-compat pair and the
# client-credentials extensions. 0.2.0-alpha.12: the 25 scored for 2026-07-28 at 2026-07-28, the 14
# of them scored for 2025-11-25 at 2025-11-25, the back-compat pair (2025-03-26, their own version)
# and the client-credentials extensions (not scored; `--force`).
auth_2025=(metadata-default metadata-var1 metadata-var2 metadata-var3 basic-cimd scope-from-www-authenticate
           scope-from-scopes-supported scope-omitted-when-undefined scope-step-up scope-retry-limit
           token-endpoint-auth-basic token-endpoint-auth-post token-endpoint-auth-none pre-registration)
auth_2026=("${auth_2025[@]}" resource-mismatch offline-access-scope offline-access-not-supported
           authorization-server-migration iss-supported iss-not-advertised iss-supported-missing iss-wrong-issuer
           iss-unexpected iss-normalized metadata-issuer-mismatch)
auth_other=(2025-03-26-oauth-metadata-backcompat 2025-03-26-oauth-endpoint-fallback client-credentials-jwt
            client-credentials-basic)
if [[ $which == all || $which == 2025-11-25 ]]; then
  for s in "${auth_2025[@]}" resource-mismatch offline-access-scope offline-access-not-supported "${auth_other[@]}"; do
    runs+=("2025-11-25 auth/$s -")
  done
fi
if [[ $which == all || $which == 2026-07-28 ]]; then
  for s in "${auth_2026[@]}"; do runs+=("2026-07-28 auth/$s 2026-07-28"); done
  for s in "${auth_2025[@]}"; do runs+=("2026-07-28 auth/$s 2025-11-25"); done
  for s in "${auth_other[@]}"; do
    case $s in
      client-credentials-*) runs+=("2026-07-28 auth/$s 2026-07-28") ;;
      *) runs+=("2026-07-28 auth/$s -") ;;
    esac
  done
fi
[[ ${#runs[@]} -gt 0 ]] || usage
if $list; then
  printf '%s\n' "${runs[@]}"
  exit 0
fi

failed=0
for run in "${runs[@]}"; do
  read -r dir scenario version <<<"$run"
  pkg=$here/$dir
  if [[ ! -x $pkg/node_modules/.bin/node || ! -d $pkg/node_modules/@modelcontextprotocol/conformance ]]; then
    (cd "$pkg" && npm ci --no-audit --no-fund --loglevel=error)
  fi
  args=(client --command "$client" --scenario "$scenario")
  [[ $version == - ]] || args+=(--spec-version "$version")
  # Extensions are not on the spec timeline: run them anyway.
  [[ $scenario != auth/client-credentials-* || $version == - ]] || args+=(--force)
  status=0
  out=$(cd "$pkg" && node_modules/.bin/node node_modules/@modelcontextprotocol/conformance/dist/index.js "${args[@]}" 2>&1) ||
    status=$?
  summary=$(grep -E '^Passed: [0-9]+/[0-9]+' <<<"$out" | tail -n1)
  suite=$(sed -n 's|.*"@modelcontextprotocol/conformance": "\([^"]*\)".*|\1|p' "$pkg/package.json")
  shown=$version
  [[ $shown != - ]] || shown=2025-11-25
  [[ $scenario != auth/2025-03-26-* ]] || shown=2025-03-26
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
