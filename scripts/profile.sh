#!/usr/bin/env bash
# Where a 2026-07-28 round trip of the sample HTTP server goes (bench section 8's tool, github_username:
# tools/call, input_required, the retry with inputResponses and requestState, the complete result),
# counted rather than timed, so that the figures hold on a busy machine:
#   scripts/profile.sh instructions [N] [TOP]   callgrind: instructions per round trip over N round
#                                               trips (default 1000) after 200 of warm-up, and the TOP
#                                               functions (default 15) by their own instructions
#   scripts/profile.sh allocations [N]          valgrind DHAT: heap blocks and bytes allocated per
#                                               round trip (the difference of runs of N and 2N)
# The round trips come one after the other from bench/modern_driver.cpp on one keep-alive connection.
# The profiles stay in BUILD_DIR/profile/ (callgrind.out for callgrind_annotate; dhat.json for
# DHAT's viewer, dh_view.html). Needs valgrind (Debian: apt-get install valgrind). Builds the
# Release tree of scripts/bench.sh (BUILD_DIR, default build-bench). Not run by CI.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
n=${2:-1000}
top=${3:-15}
if [[ $mode != instructions && $mode != allocations ]] || ! [[ $n =~ ^[1-9][0-9]*$ && $top =~ ^[1-9][0-9]*$ ]]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
command -v valgrind >/dev/null || {
  echo "profile.sh: needs valgrind (Debian: apt-get install valgrind)" >&2
  exit 2
}
build=${BUILD_DIR:-build-bench}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DELICITGEN_BUILD_TESTS=OFF -DELICITGEN_BUILD_SAMPLES=ON >/dev/null
cmake --build "$build" --target elicitgen_http_server elicit_modern_driver >/dev/null
server=$build/samples/elicitgen_http_server
driver=$build/bench/elicit_modern_driver
out=$build/profile
mkdir -p "$out"
work=$(mktemp -d)
pid=
cleanup() {
  [[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# Starts the server under valgrind with the given tool options; sets `pid` and `url`.
start() {
  valgrind "$@" "$server" --port 0 >"$work/url" 2>"$work/valgrind.err" &
  pid=$!
  url=
  for _ in $(seq 300); do # up to 60 s: valgrind starts slowly
    url=$(head -1 "$work/url" 2>/dev/null || true)
    [[ $url == http* ]] && return
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  echo "profile.sh: the server did not start under valgrind:" >&2
  cat "$work/valgrind.err" >&2
  exit 1
}

# Ends the server (valgrind writes its profile then) and waits for it.
stop() {
  kill -INT "$pid"
  wait "$pid" 2>/dev/null || true
  pid=
}

if [[ $mode == instructions ]]; then
  start --tool=callgrind --instr-atstart=no --callgrind-out-file="$out/callgrind.out"
  "$driver" "$url" 200 >/dev/null
  callgrind_control -i on "$pid" >/dev/null 2>&1
  "$driver" "$url" "$n" >/dev/null
  callgrind_control -i off "$pid" >/dev/null 2>&1
  stop
  # Own instructions per round trip; nlohmann's and libstdc++'s long type names shortened.
  callgrind_annotate --inclusive=no "$out/callgrind.out" 2>/dev/null | awk -v n="$n" -v top="$top" '
    /PROGRAM TOTALS/ { gsub(",", "", $1); printf "instructions per round trip: %.0f (%d round trips)\n", $1 / n, n }
    /file:function/ { listing = 1; getline; next }
    listing && top-- > 0 && /^ *[0-9,]+ / {
      count = $1; gsub(",", "", count)
      sub(/^ *[0-9,]+ +\( *[0-9.]+%\) +/, "")
      sub(/ \[[^]]*\]$/, "")
      printf "%9.0f  %s\n", count / n, $0
    }' | sed -e 's/???://' \
    -e 's/std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >/std::string/g' \
    -e 's/nlohmann::json_abi_v[0-9_]*::basic_json<std::map, std::vector, std::string, bool, long, unsigned long, double, std::allocator, nlohmann::json_abi_v[0-9_]*::adl_serializer, std::vector<unsigned char, std::allocator<unsigned char> >\(, void\)\{0,1\} \{0,1\}>/nlohmann::json/g' |
    cut -c1-160
else
  # DHAT counts from the start, so two runs (N and 2N round trips) and their difference: the
  # start-up and the warm-up cancel out.
  for k in 1 2; do
    start --tool=dhat --dhat-out-file="$out/dhat.json"
    "$driver" "$url" $((k * n)) >/dev/null
    stop
    grep -E '^==[0-9]+== Total:' "$work/valgrind.err" | tail -1 >"$work/total.$k"
  done
  read -r blocks1 bytes1 < <(sed -E 's/.*Total: +([0-9,]+) bytes in +([0-9,]+) blocks.*/\2 \1/; s/,//g' "$work/total.1")
  read -r blocks2 bytes2 < <(sed -E 's/.*Total: +([0-9,]+) bytes in +([0-9,]+) blocks.*/\2 \1/; s/,//g' "$work/total.2")
  awk -v b1="$blocks1" -v b2="$blocks2" -v y1="$bytes1" -v y2="$bytes2" -v n="$n" 'BEGIN {
    printf "allocations per round trip: %.1f (%.0f bytes), from runs of %d and %d round trips\n",
      (b2 - b1) / n, (y2 - y1) / n, n, 2 * n }'
  echo "the sites of the $((2 * n))-round-trip run: $out/dhat.json in DHAT's viewer (dh_view.html)" >&2
fi
