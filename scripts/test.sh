#!/usr/bin/env bash
# The test command: install dependencies, build everything (libraries, generator, CLI, samples, the
# docs' examples, benchmarks, tests) with warnings as errors under AddressSanitizer +
# UndefinedBehaviorSanitizer and run every test there, the interoperability suites (CTest label
# "interop") included; then the runtime's concurrency tests under ThreadSanitizer
# (ELICITGEN_SKIP_SANITIZE=1 builds the first pass without sanitizers and skips the second), then
# the libFuzzer targets for a minute each (ELICITGEN_SKIP_FUZZ=1 skips them; ELICITGEN_FUZZ_SECONDS
# sets the time). One instrumented pass rather than a plain Debug pass beside an ASan one: the same
# tests, each run once, and a third less compile time on a cold machine. Debug information: line
# tables (enough for symbolized stack traces). Every pass is a unity build (ELICITGEN_UNITY_BUILD:
# half the compile time of a cold machine), checked source by source by the standalone_sources
# tests. Compiles go through ccache when installed (scripts/compiler-cache.sh): a later run on the
# same machine builds what changed. Each pass's build and test time is printed at the end
# (`ci-times:` lines).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
jobs=$(nproc)
source scripts/compiler-cache.sh
source scripts/ci-times.sh

build=${BUILD_DIR:-build-test}
sanitize=ON
[[ -n ${ELICITGEN_SKIP_SANITIZE:-} ]] && sanitize=OFF
cmake -S . -B "$build" -G Ninja "${compiler_cache[@]}" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS="-Werror" -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
  -DELICITGEN_SANITIZE=$sanitize -DELICITGEN_UNITY_BUILD=ON >/dev/null
timed "asan build" cmake --build "$build"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  timed "asan tests" ctest --test-dir "$build" --output-on-failure -j "$jobs"

if [[ -z ${ELICITGEN_SKIP_SANITIZE:-} ]]; then
  # ThreadSanitizer on the runtime's concurrency tests, a binary per layer: the JSON-RPC connection,
  # transports, timers and workers (jsonrpc_tests); the MCP server, its workers, elicitation and the
  # in-memory completion store (mcp_tests); the Redis completion and task stores (redis_tests);
  # Streamable HTTP on its I/O threads (http_tests), the token verifiers and the OAuth client
  # (auth_tests), the browser form pages and their stores (forms_tests, forms_redis_tests), the
  # probes, drain, metrics and request log of the operations wing (ops_tests).
  # -Wno-tsan: GCC 12 warns that TSan does not model the atomic_thread_fence Asio uses; the tests
  # show no race there.
  tsan=${TSAN_BUILD_DIR:-build-tsan}
  cmake -S . -B "$tsan" -G Ninja "${compiler_cache[@]}" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS="-Werror -fsanitize=thread -Wno-tsan" -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DELICITGEN_BUILD_SAMPLES=OFF -DELICITGEN_BUILD_SAMPLE_SERVERS=OFF \
    -DELICITGEN_BUILD_BENCHMARKS=OFF -DELICITGEN_UNITY_BUILD=ON >/dev/null
  timed "tsan build" cmake --build "$tsan" --target jsonrpc_tests mcp_tests redis_tests http_tests auth_tests forms_tests \
    forms_redis_tests ops_tests
  TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/tests/support/tsan.supp" timed "tsan tests" \
    ctest --test-dir "$tsan" --output-on-failure -j "$jobs" -R '^(jsonrpc_tests|mcp_tests|redis_tests|http_tests|auth_tests|forms_tests|forms_redis_tests|ops_tests)'
fi

if [[ -z ${ELICITGEN_SKIP_FUZZ:-} ]]; then
  # libFuzzer (clang, ASan + UBSan): schema loading + checks + rendering, generated decode, and
  # JSON-RPC handling in a server session, a bounded time each.
  # It prints its own `ci-times:` lines (build, runs).
  ELICITGEN_FUZZ_GENERATOR=$build/cli/elicitgen scripts/fuzz.sh "${ELICITGEN_FUZZ_SECONDS:-60}"
fi
ci_times_report
