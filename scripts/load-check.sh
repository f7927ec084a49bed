#!/usr/bin/env bash
# Runs the tests of an existing build tree under CPU load, the way a busy CI machine runs them: four
# stress-ng CPU workers beside `ctest -j2` (the two cores taken twice over), for ROUNDS rounds.
# Prints each round's load average and failed tests, and a summary; exits 1 when any round failed.
# A test that fails here and passes on a quiet machine waits on time instead of on an event: fix it.
# Usage: scripts/load-check.sh BUILD_DIR [ROUNDS (3)] [CTEST ARGS...], e.g.
#   scripts/load-check.sh build-test 3 -LE interop     # the Catch2 binaries and the other checks
#   scripts/load-check.sh build-test 2 -L interop      # the interoperability suites
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: scripts/load-check.sh BUILD_DIR [ROUNDS] [CTEST ARGS...]}
rounds=${2:-3}
shift $(($# >= 2 ? 2 : 1))
scripts/setup-debian.sh stress-ng
failed_rounds=0
for ((round = 1; round <= rounds; ++round)); do
  # Bounded: the workers stop by themselves after an hour even if this script is killed.
  stress-ng --cpu 4 --timeout 3600 --quiet &
  stress=$!
  sleep 5  # let the load build up before the tests start
  log=$(mktemp)
  status=0
  ctest --test-dir "$build" -j 2 --output-on-failure "$@" >"$log" 2>&1 || status=$?
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  kill "$stress" 2>/dev/null || true
  wait "$stress" 2>/dev/null || true
  failures=$(grep -E '^\s+[0-9]+ - ' "$log" || true)
  echo "load-check: round $round of $rounds: load average $load; $(grep -E 'tests passed' "$log" || echo 'no summary')"
  if ((status != 0)); then
    failed_rounds=$((failed_rounds + 1))
    echo "$failures"
    cp "$log" "$build/load-check-round-$round.log"
    echo "load-check: round $round's output: $build/load-check-round-$round.log"
  fi
  rm -f "$log"
done
echo "load-check: $((rounds - failed_rounds)) passed, $failed_rounds failed"
((failed_rounds == 0))
