# shellcheck shell=bash source-path=SCRIPTDIR
# What the operations tests (drain.sh, prometheus.sh) share, sourced by each after `set -euo
# pipefail`: a work directory, the processes started (stopped and waited for on exit), free
# loopback ports (../ports.sh), waiting for a process's printed URL. Each script defines fail() itself
# (what it prints on failure is its own), before calling these.
work=$(mktemp -d)
chmod 755 "$work"  # nginx workers may run as another user
pids=()
# Stops every process started here: SIGTERM, then up to 10 s each, then SIGKILL.
cleanup() {
  local rc=$?
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT

now_ms() { date +%s%3N; }

# shellcheck disable=SC2154 # `here`: set by the sourcing script, its own directory
source "$here/../ports.sh"  # free_ports, wait_port

# The first line $work/$1.out holds (a server's URL), waiting for it at most 60 s.
url_of() {
  for _ in $(seq 1 600); do
    if [[ -s $work/$1.out ]]; then head -n1 "$work/$1.out"; return 0; fi
    sleep 0.1
  done
  fail "server $1 printed no URL within 60 s"
}

hostport() { local u=${1#http://}; echo "${u%%/*}"; }
