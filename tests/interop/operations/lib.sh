# shellcheck shell=bash
# What the operations tests (drain.sh, prometheus.sh) share, sourced by each after `set -euo
# pipefail`: a work directory, the processes started (stopped and waited for on exit), free
# loopback ports, waiting for a port or a process's printed URL. Each script defines fail() itself
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

# N distinct free loopback ports, each held open until all are known.
free_ports() {
  node -e "const net=require('net');const n=+process.argv[1];const held=[];
const next=()=>{if(held.length===n){console.log(held.map((s)=>s.address().port).join(' '));held.forEach((s)=>s.close());return;}
const s=net.createServer().listen(0,'127.0.0.1',()=>{held.push(s);next();});};next();" "$1"
}

# Waits (at most 60 s) until something listens on loopback port $1.
wait_port() {
  for _ in $(seq 1 600); do
    if node -e "require('net').connect($1,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))"; then
      return 0
    fi
    sleep 0.1
  done
  fail "nothing listens on port $1"
}

# The first line $work/$1.out holds (a server's URL), waiting for it at most 60 s.
url_of() {
  for _ in $(seq 1 600); do
    if [[ -s $work/$1.out ]]; then head -n1 "$work/$1.out"; return 0; fi
    sleep 0.1
  done
  fail "server $1 printed no URL within 60 s"
}

hostport() { local u=${1#http://}; echo "${u%%/*}"; }
