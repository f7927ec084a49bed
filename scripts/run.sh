#!/usr/bin/env bash
# The main job: install dependencies, build elicitgen, generate typed C++ for every sample schema
# (a build step, through elicitgen_generate), and run the sample elicitation round trips; then a
# host built on elicit::Client answers a tool's form from the stdio sample server.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target elicitgen_sample elicitgen_minimal_client elicitgen_stdio_server
echo "--- generated: $(ls "$build"/sample_types/*.hpp | wc -l) headers in $build/sample_types"
"$build"/samples/elicitgen_sample
echo "--- a host (samples/minimal_client.cpp) calls contact_information on the stdio sample server"
"$build"/samples/elicitgen_minimal_client "$build"/samples/elicitgen_stdio_server contact_information
