#!/usr/bin/env bash
# Runs the README's "Use it in your project" walkthrough as written: every block marked
# <!-- walkthrough: NAME --> is taken from README.md at test time, so a change to the README is what
# this test runs.
#   install           the "Build and install" commands: every -D option must be one CMakeLists.txt
#                     defines; its `cmake --install build ...` line is run against this build tree
#                     (configuring and building a second elicitgen would take minutes);
#   FILE (has a . or /) written to the user's project directory, e.g. forms/room_booking.json,
#                     CMakeLists.txt, main.cpp;
#   run               run line by line with bash in the project directory (HOME is a scratch
#                     directory, so $HOME/.local is the install above); the last line's stdout must
#                     equal the block marked output;
#   add_subdirectory  replaces the find_package line of CMakeLists.txt in a copy of the project with
#                     the elicitgen sources at third_party/elicitgen: it must configure, with
#                     elicitgen's tests, samples and benchmarks off (PROJECT_IS_TOP_LEVEL).
# Usage: walkthrough.sh SOURCE_DIR BUILD_DIR WORK_DIR [CONSUMER_FLAGS]
# CONSUMER_FLAGS: what the user's project must be compiled and linked with to use BUILD_DIR's
# libraries (its sanitizers); given to CMake as CXXFLAGS and LDFLAGS, so the README's commands run
# unchanged.
set -euo pipefail
source_dir=$1
build_dir=$2
work=$3
if [[ -n ${4:-} ]]; then
  export CXXFLAGS=$4 LDFLAGS=$4
fi
readme=$source_dir/README.md

rm -rf "$work"
mkdir -p "$work/blocks"
export HOME=$work/home
mkdir -p "$HOME/rooms"
# One file per block, named by its marker (a / in the name as %).
awk -v dir="$work/blocks" '
  inblock && /^```[ \t]*$/ { inblock = 0; close(file); next }
  inblock { print $0 > file; next }
  /^<!-- walkthrough: [^ ]+ -->/ { name = $3; gsub("/", "%", name); want = NR + 1; next }
  /^```/ && NR == want { file = dir "/" name; printf "" > file; inblock = 1; next }
' "$readme"
for name in install CMakeLists.txt main.cpp run output add_subdirectory; do
  [[ -f $work/blocks/$name ]] || { echo "walkthrough: README.md has no block marked walkthrough: $name" >&2; exit 1; }
done

step() { echo "--- $*"; }
fail() { echo "walkthrough: $*" >&2; exit 1; }

step "install: the options the README names exist, and the install command"
while read -r option; do
  grep -Eq "^option\(${option}[[:space:]]" "$source_dir/CMakeLists.txt" || [[ $option == CMAKE_* ]] ||
    fail "the install block sets -D${option}, which CMakeLists.txt does not define"
done < <(grep -o -- '-D[A-Z_]*' "$work/blocks/install" | sed 's/^-D//')
install_line=$(grep -E '^cmake --install build ' "$work/blocks/install") || fail "no 'cmake --install build' line"
mkdir -p "$work/elicitgen"
ln -s "$build_dir" "$work/elicitgen/build"
(cd "$work/elicitgen" && bash -euo pipefail -c "$install_line" >"$work/install.log") ||
  fail "'$install_line' failed: $(cat "$work/install.log")"
[[ -x $HOME/.local/bin/elicitgen ]] || fail "the install put no bin/elicitgen in \$HOME/.local"

step "the project's files"
for block in "$work"/blocks/*; do
  name=$(basename "$block")
  [[ $name == *.* || $name == *%* ]] || continue
  target=$HOME/rooms/${name//%//}
  mkdir -p "$(dirname "$target")"
  cp "$block" "$target"
  echo "$target"
done

step "run"
mapfile -t lines < "$work/blocks/run"
last=$((${#lines[@]} - 1))
for i in "${!lines[@]}"; do
  line=${lines[$i]}
  [[ -z $line ]] && continue
  echo "\$ $line"
  if ((i == last)); then
    (cd "$HOME/rooms" && bash -euo pipefail -c "$line" >"$work/stdout" 2>"$work/stderr") ||
      fail "the last command failed: $(cat "$work/stderr")"
  else
    (cd "$HOME/rooms" && bash -euo pipefail -c "$line" >"$work/step.log" 2>&1) || fail "failed: $(cat "$work/step.log")"
  fi
done
if ! diff -u "$work/blocks/output" "$work/stdout"; then
  fail "the last command's output (+) is not the README's (-)"
fi

step "add_subdirectory"
sub=$work/sub
mkdir -p "$sub/third_party"
cp -r "$HOME/rooms/forms" "$HOME/rooms/main.cpp" "$sub/"
ln -s "$source_dir" "$sub/third_party/elicitgen"
replacement=$(cat "$work/blocks/add_subdirectory")
grep -q '^find_package(elicitgen' "$HOME/rooms/CMakeLists.txt" || fail "CMakeLists.txt has no find_package(elicitgen line"
while IFS= read -r line; do
  if [[ $line == find_package\(elicitgen* ]]; then printf '%s\n' "$replacement"; else printf '%s\n' "$line"; fi
done < "$HOME/rooms/CMakeLists.txt" > "$sub/CMakeLists.txt"
cmake -S "$sub" -B "$sub/build" >"$work/sub.log" 2>&1 || fail "configuring with add_subdirectory failed: $(cat "$work/sub.log")"
for option in ELICITGEN_BUILD_TESTS ELICITGEN_BUILD_SAMPLES ELICITGEN_BUILD_BENCHMARKS; do
  grep -q "^${option}:BOOL=OFF" "$sub/build/CMakeCache.txt" || fail "$option is not OFF in a project that adds elicitgen"
done
echo "walkthrough: ok"
