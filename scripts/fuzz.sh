#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for a bounded time on the
# seed corpus in fuzz/corpus/. Usage: scripts/fuzz.sh [seconds per target, default 60]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh clang libclang-rt-14-dev
seconds=${1:-60}
build=${FUZZ_BUILD_DIR:-build-fuzz}
source scripts/compiler-cache.sh
source scripts/ci-times.sh
# Line tables only: enough for symbolized crash reports, a fraction of full debug information's cost.
# -O1, as libFuzzer's own documentation builds its targets: less compile time than -O2 on a cold
# machine, for a few per cent of executions a minute.
# The targets' generated code comes from an elicitgen already built when ELICITGEN_FUZZ_GENERATOR
# names one (scripts/test.sh passes its ASan build's): otherwise this build compiles the whole CLI
# (its HTTP client, the browser forms wing) only to run the generator, about 3 minutes of a cold CI.
generator=()
if [[ -n ${ELICITGEN_FUZZ_GENERATOR:-} ]]; then
  [[ -x $ELICITGEN_FUZZ_GENERATOR ]] || { echo "ELICITGEN_FUZZ_GENERATOR: not an executable: $ELICITGEN_FUZZ_GENERATOR" >&2; exit 2; }
  generator=(-DELICITGEN_EXECUTABLE="$(realpath "$ELICITGEN_FUZZ_GENERATOR")")
fi
cmake -S . -B "$build" -G Ninja "${compiler_cache[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DELICITGEN_FUZZ=ON -DELICITGEN_UNITY_BUILD=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" "${generator[@]}" \
  -DELICITGEN_BUILD_TESTS=OFF -DELICITGEN_BUILD_SAMPLES=OFF -DELICITGEN_BUILD_BENCHMARKS=OFF >/dev/null
timed "fuzz build" cmake --build "$build" --target fuzz_schema fuzz_decode fuzz_session fuzz_headers fuzz_jwt
fuzz_start=$SECONDS

# One target per core at a time, each for `seconds` on its own core; each writes its crash, timeout
# and leak files into its own directory, and its summary is printed when it ends.
fuzz_one() {
  local target=$1 seeds work artifacts
  seeds=fuzz/corpus/$( [[ $target == decode ]] && echo content || echo "$target")
  work="$build/corpus-$target"
  artifacts="$build/artifacts-$target"
  rm -rf "$artifacts"
  mkdir -p "$work" "$artifacts"
  "$build/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$work" "$seeds" >"$build/fuzz-$target.log" 2>&1 || true
  # One write of the whole summary: the targets running alongside print theirs too.
  local summary
  summary=$(grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)|ERROR|SUMMARY" \
    "$build/fuzz-$target.log" || true)
  printf -- '--- fuzz_%s for %ss\n%s\n' "$target" "$seconds" "$summary"
}
slots=$(nproc)
for target in schema decode session headers jwt; do
  while (($(jobs -rp | wc -l) >= slots)); do wait -n || true; done
  fuzz_one "$target" &
done
wait
# libFuzzer exits non-zero on a crash; its status is not kept above, so check the artifacts instead.
failed=0
for target in schema decode session headers jwt; do
  if compgen -G "$build/artifacts-$target/*" >/dev/null; then
    echo "fuzz_$target found a failure:"; ls "$build/artifacts-$target"
    sed -n '/ERROR\|SUMMARY/,$p' "$build/fuzz-$target.log" | head -60
    failed=1
  fi
done
ci_times+=("fuzz runs=$((SECONDS - fuzz_start))")
for entry in "${ci_times[@]}"; do ci_times_line "${entry%%=*}" "${entry##*=}"; done
((failed == 0)) || exit 1
echo "fuzzing: no crash, timeout or leak"
