#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for a bounded time on the
# seed corpus in fuzz/corpus/. Usage: scripts/fuzz.sh [seconds per target, default 60]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh clang libclang-rt-14-dev
seconds=${1:-60}
build=${FUZZ_BUILD_DIR:-build-fuzz}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DELICITGEN_FUZZ=ON \
  -DELICITGEN_BUILD_TESTS=OFF -DELICITGEN_BUILD_SAMPLES=OFF -DELICITGEN_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$build" --target fuzz_schema fuzz_decode fuzz_session fuzz_headers fuzz_jwt
for target in schema decode session headers jwt; do
  seeds=fuzz/corpus/$( [[ $target == decode ]] && echo content || echo "$target")
  work="$build/corpus-$target"
  mkdir -p "$work"
  echo "--- fuzz_$target for ${seconds}s"
  "$build/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    "$work" "$seeds" 2>&1 | grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)|ERROR|SUMMARY" || true
  # libFuzzer exits non-zero on a crash; grep hides the status, so check the crash files instead.
  if compgen -G "crash-*" >/dev/null || compgen -G "timeout-*" >/dev/null || compgen -G "leak-*" >/dev/null; then
    echo "fuzz_$target found a failure:"; ls crash-* timeout-* leak-* 2>/dev/null; exit 1
  fi
done
echo "fuzzing: no crash, timeout or leak"
