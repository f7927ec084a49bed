#!/usr/bin/env bash
# The main job: install dependencies, build elicitgen, generate typed C++ for every sample schema
# (a build step, through elicitgen_generate), and run the sample elicitation round trips.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target elicitgen_sample
echo "--- generated: $(ls "$build"/sample_types/*.hpp | wc -l) headers in $build/sample_types"
"$build"/samples/elicitgen_sample
