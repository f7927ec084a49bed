#!/usr/bin/env bash
# Benchmarks against the peers, printed as one table with ratios (bench/node/report.mjs). Not part
# of the pass/fail tests. Takes about 4 minutes, most of it quicktype's 200 invocations.
#   1. decode + validate of one accepted response: elicitgen vs nlohmann floors, hand-written
#      extraction and ajv + ajv-formats;
#   2. generator throughput on 200 schemas, one invocation and 200, vs quicktype (C++ target);
#   3. compile time of a generated header + tiny main at -O2 vs quicktype's output;
#   4. form elicitations per second over the in-memory transport; heap per pending elicitation.
# Environment: BUILD_DIR (default build-bench), BENCH_QUICKTYPE_RUNS (default 200).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
build=${BUILD_DIR:-build-bench}
quicktype_runs=${BENCH_QUICKTYPE_RUNS:-200}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DELICITGEN_BUILD_TESTS=OFF -DELICITGEN_BUILD_SAMPLES=OFF >/dev/null
cmake --build "$build" --target elicitgen elicit_decode_bench elicit_roundtrip_bench >/dev/null

# ajv, ajv-formats, quicktype and node 22 (quicktype needs node >= 20.19), pinned in package-lock.json.
if [[ ! -x bench/node/node_modules/.bin/node || ! -d bench/node/node_modules/quicktype || ! -d bench/node/node_modules/ajv ]]; then
  (cd bench/node && npm ci --no-audit --no-fund --loglevel=error)
fi
node=$PWD/bench/node/node_modules/.bin/node
quicktype=("$node" "$PWD/bench/node/node_modules/quicktype/dist/index.js")
elicitgen=$PWD/$build/generator/elicitgen
out=$PWD/$build/bench-results
rm -rf "$out" && mkdir -p "$out"
timings=$out/timings.txt
: >"$timings"

now_ns() { date +%s%N; }
record() { echo "$1 $2" >>"$timings"; }
# Runs a command, records its wall time in ms under `key`; a failing command stops the script.
timed() {
  local key=$1; shift
  local start; start=$(now_ns)
  "$@" >/dev/null
  record "$key" $((($(now_ns) - start) / 1000000))
}

echo "1/4 decode + validate (Google Benchmark, ajv)" >&2
"$build/bench/elicit_decode_bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_format=json >"$out/decode.json" 2>/dev/null
"$node" bench/node/ajv_decode.mjs bench/schemas/contact_form.json bench/schemas/accepted_response.json >"$out/ajv.json"

echo "2/4 generator throughput (elicitgen, quicktype x $quicktype_runs)" >&2
"$node" bench/node/make_schemas.mjs "$out/schemas" 200
schemas=("$out"/schemas/*.json)
timed elicitgen_one_invocation_ms "$elicitgen" generate -o "$out/elicitgen-one" "${schemas[@]}"
generate_each() { for f in "${schemas[@]}"; do "$elicitgen" generate -o "$out/elicitgen-each" "$f"; done; }
timed elicitgen_200_invocations_ms generate_each
mkdir -p "$out/quicktype-one"
timed quicktype_one_invocation_ms "${quicktype[@]}" --lang c++ --src-lang schema --namespace bench \
  -o "$out/quicktype-one/all.hpp" "${schemas[@]}"
quicktype_each() {
  mkdir -p "$out/quicktype-each"
  for f in "${schemas[@]:0:$quicktype_runs}"; do
    "${quicktype[@]}" --lang c++ --src-lang schema --namespace bench -o "$out/quicktype-each/$(basename "$f" .json).hpp" "$f"
  done
}
timed quicktype_invocations_ms quicktype_each
record quicktype_invocations "$quicktype_runs"
record schema_files "${#schemas[@]}"

echo "3/4 compile time (g++ -O2, 3 runs each)" >&2
compile_dir=$out/compile
mkdir -p "$compile_dir"
"$elicitgen" generate -o "$compile_dir" --namespace bench bench/schemas/contact_form.json
"$node" -e 'const fs=require("fs");fs.writeFileSync(process.argv[2],JSON.stringify(JSON.parse(fs.readFileSync(process.argv[1])).requestedSchema))' \
  bench/schemas/contact_form.json "$compile_dir/contact_form.schema.json"
"${quicktype[@]}" --lang c++ --src-lang schema --namespace bench --top-level ContactForm \
  -o "$compile_dir/contact_form_quicktype.hpp" "$compile_dir/contact_form.schema.json"
cxx=(g++ -std=c++17 -O2 -c -o /dev/null -I "$compile_dir" -I runtime/include -I /usr/include/nlohmann)
for run in 1 2 3; do
  timed "compile_elicitgen_main_ms_$run" "${cxx[@]}" bench/compile/main_elicitgen.cpp
  timed "compile_elicitgen_source_ms_$run" "${cxx[@]}" "$compile_dir/contact_form.cpp"
  timed "compile_quicktype_main_ms_$run" "${cxx[@]}" bench/compile/main_quicktype.cpp
done

echo "4/4 runtime (in-memory transport)" >&2
"$build/bench/elicit_roundtrip_bench" --benchmark_format=json >"$out/roundtrip.json" 2>/dev/null

"$node" bench/node/report.mjs "$out"
