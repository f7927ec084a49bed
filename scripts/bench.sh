#!/usr/bin/env bash
# Benchmarks: an optimised build, then each benchmark binary with its table.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
build=${BUILD_DIR:-build-bench}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DELICITGEN_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" --target elicit_roundtrip_bench
"$build"/bench/elicit_roundtrip_bench
