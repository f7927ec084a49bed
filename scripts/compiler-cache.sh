# Sourced by test.sh and fuzz.sh from the checkout's root: compile through ccache when it is there
# (setup-debian.sh installs it). Paths are hashed relative to the checkout, so a clone anywhere on
# the same machine reuses what an earlier run compiled and builds only what changed, but for unity
# batches (ELICITGEN_UNITY_BUILD, which test.sh and fuzz.sh use): CMake's unity sources include each
# file by its absolute path, so they hit the cache only in the same checkout. A fresh machine
# compiles everything, as without it. ELICITGEN_NO_CCACHE=1 turns it off.
compiler_cache=()
if [[ -z ${ELICITGEN_NO_CCACHE:-} ]] && command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true
  compiler_cache=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
