#!/usr/bin/env bash
# Drain without losing a user (issue 48, operations): two sample servers A and B sharing their
# requestState keys behind nginx (round robin, keep-alive upstream connections, loopback), each with
# a Redis (redis-server started here) and --log json. A steady load (load.mjs: 8 clients, fetch()
# only, each looping over a two-round 2026-07-28 form call through nginx) runs while A gets SIGTERM,
# with a slow request (slow.mjs: slow_compute, 3 s, straight to A) in flight. Checked:
# - the slow request finishes (HTTP 200, its result; the response says Connection: close) although
#   A drains meanwhile;
# - A stops being ready at once, and never ready again: its /readyz, probed straight after the
#   signal until A exits, answers 503 while A still accepts (--drain-delay-ms 2000), then the
#   connection is refused; never 200 after the first probe that was not;
# - A exits 0 within its drain delay (2 s) and timeout (15 s) plus a margin, having logged
#   {"event":"draining"} (with the slow request in flight) and {"event":"stopped"};
# - the load goes on through B (at least 100 more calls complete after A exited);
# - the tasks made through A (--tasks-in-redis) and waiting in input_required when it drained
#   are answered through nginx once A has exited, and complete (through B);
# - a task whose run is going on in A when it drains (slow_compute as a task, RUN_SECONDS) completes
#   through B: A released the run (A's log shows its run cancelled), B ran it again (B's log shows the
#   run's result) although the run's lease (TASK_LEASE_MS) had not lapsed (a lapsed lease fails a task);
# - no request of the load failed: not one non-200, network error, JSON-RPC error or wrong result.
#   The load never retries, so a request A drops is a failure here. Prints "requests sent N,
#   failed 0, calls completed C (A served x, B served y)", the counts per process from their JSON
#   request logs, and how many requests nginx passed on to B after A failed them.
# Why: a rolling deployment stops processes one by one; a user in the middle of a multi-round call
# must not notice. MCP 2026-07-28 keeps no state in the process between rounds (the requestState
# carries it), so any process can serve the next round, and only a request A is in the middle of
# when it stops, or one it refuses, can be lost: A finishes the former, nginx moves the latter on.
# Usage: drain.sh <elicitgen_http_server>
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
[[ $# -eq 1 && -x $1 ]] || { echo "usage: $0 <elicitgen_http_server>" >&2; exit 2; }
server=$1
here=$(cd "$(dirname "$0")" && pwd)
CLIENTS=8
SLOW_SECONDS=3
DRAIN_TIMEOUT_MS=15000
TASKS=5  # confirm_delete tasks waiting in input_required on A when it drains
DRAIN_DELAY_MS=2000  # A accepts this long with readiness false (a probe-driven load balancer's notice)
RUN_SECONDS=40  # the task running on A when it drains: long enough to be running then, however busy the machine
TASK_LEASE_MS=120000  # longer than the test: the running task must be taken from A, not left to lapse

nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
[[ -x $nginx_bin ]] || { echo "nginx is not installed (Debian: nginx)" >&2; exit 1; }
redis_bin=$(command -v redis-server || echo /usr/bin/redis-server)
[[ -x $redis_bin ]] || { echo "redis-server is not installed (Debian: redis-server)" >&2; exit 1; }
command -v node >/dev/null || { echo "node is not installed (Debian: nodejs)" >&2; exit 1; }
command -v curl >/dev/null || { echo "curl is not installed (Debian: curl)" >&2; exit 1; }

source "$here/lib.sh"
fail() {
  echo "FAIL: $*" >&2
  for f in A.err B.err load.err slow.out slow.err nginx/logs/error.log; do
    [[ -s $work/$f ]] && { echo "--- $f (last 20 lines)" >&2; tail -n 20 "$work/$f" >&2; }
  done
  exit 1
}
head -c 32 /dev/urandom | base64 >"$work/shared.keys"
read -r redis_port port < <(free_ports 2)
"$redis_bin" --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" >"$work/redis.log" 2>&1 &
pids+=($!)
wait_port "$redis_port" || fail "redis-server did not start"

start_server() {
  "$server" --port 0 --instance "$1" --state-keys "$work/shared.keys" --redis "$redis_port" --tasks-in-redis \
    --task-lease-ms "$TASK_LEASE_MS" --log json "${@:2}" \
    >"$work/$1.out" 2>"$work/$1.err" &
  pids+=($!)
}
start_server A --drain-delay-ms "$DRAIN_DELAY_MS" --drain-timeout-ms "$DRAIN_TIMEOUT_MS"
pid_a=${pids[-1]}
start_server B
url_a=$(url_of A)
url_b=$(url_of B)
base_a="http://$(hostport "$url_a")"
for u in "$url_a" "$url_b"; do
  ready=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://$(hostport "$u")/readyz" || true)
  [[ $ready == 200 ]] || fail "$u: /readyz answered $ready before the test began"
done

mkdir -p "$work/nginx/logs"
cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
error_log $work/nginx/logs/error.log warn;
pid $work/nginx/nginx.pid;
events { worker_connections 1024; }
http {
  # Which process served each request: \$upstream_addr lists every process nginx tried ("A, B" when
  # it passed the request on), \$upstream_status what each answered (502 when the connection failed).
  log_format upstream '\$msec \$request_method \$uri \$status \$upstream_addr \$upstream_status';
  access_log $work/nginx/logs/access.log upstream;
  client_body_temp_path $work/nginx/body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;
  upstream mcp {
    server $(hostport "$url_a");
    server $(hostport "$url_b");
    keepalive 16;  # connections to the servers kept open between requests: what A closes as it drains
  }
  server {
    listen 127.0.0.1:$port;
    location / {
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Connection "";  # keep-alive upstream connections (nginx sends "close" by default)
      proxy_set_header Host 127.0.0.1:$port;
      proxy_buffering off;
      # Pass a request on to the other process when the connection to one fails (A refuses new
      # connections once it drains, and closes the idle kept-alive ones, possibly just as nginx
      # writes a request to one of them) or does not answer. By default nginx does not pass a POST on
      # once it has sent any of it (non-idempotent: it might have run); every MCP request is a POST,
      # so without non_idempotent that race reaches the client as a 502. A 2026-07-28 request is safe
      # to send again: it carries its whole state (the sealed requestState and the answers), the
      # process keeps nothing between rounds, and a round that ran on A and runs again on B asks the
      # same question or gives the same result. (A tool with side effects of its own must still be
      # idempotent for "timeout" to be safe: nginx may retry a request that did run.)
      proxy_next_upstream error timeout non_idempotent;
      proxy_connect_timeout 5s;
    }
  }
}
CONF
"$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" &
pids+=($!)
wait_port "$port" || fail "nginx did not start"
echo "A: $url_a (--drain-delay-ms $DRAIN_DELAY_MS --drain-timeout-ms $DRAIN_TIMEOUT_MS), B: $url_b, behind nginx at http://127.0.0.1:$port/mcp"

# Load: reads "sent failed completed" from its status file.
status() {
  local s=(0 0 0)
  [[ -s $work/load.status ]] && read -r -a s <"$work/load.status"
  sent=${s[0]} failed=${s[1]} completed=${s[2]}
}
node "$here/load.mjs" "http://127.0.0.1:$port/mcp" "$CLIENTS" "$work/load.status" "$work/load.stop" 60 \
  >"$work/load.out" 2>"$work/load.err" &
load_pid=$!
pids+=("$load_pid")
# Waits (bounded) until at least $1 calls completed; fails after $2 seconds.
wait_completed() {
  for _ in $(seq 1 $(($2 * 20))); do
    status
    [[ $completed -ge $1 ]] && return 0
    kill -0 "$load_pid" 2>/dev/null || fail "the load stopped early"
    sleep 0.05
  done
  fail "fewer than $1 calls completed within $2 s (sent $sent, failed $failed, completed $completed)"
}
wait_completed 100 60
echo "load: $CLIENTS clients, $completed calls completed so far"

# Tasks waiting for a person when A drains: made through A (kept in the shared Redis), each in
# input_required, holding no run in any process; answered through nginx once A has exited.
node "$here/tasks.mjs" make "$url_a" "$TASKS" "$work/tasks.json" >"$work/tasks.out" 2>"$work/tasks.err" ||
  fail "making $TASKS tasks through A failed: $(cat "$work/tasks.err")"
echo "tasks waiting on A: $(cat "$work/tasks.out")"

# A task running on A when it drains: started before the slow request (started between the slow
# request and the signal, it once delayed the signal until the slow request had ended), with a run
# long enough to be still going when A lets it go however busy the machine (with 20 s, a loaded
# machine once let A finish it first).
node "$here/tasks.mjs" start "$url_a" "$RUN_SECONDS" "$work/run.id" >"$work/run.out" 2>"$work/run.err" ||
  fail "starting a task run on A failed: $(cat "$work/run.err")"
echo "task run on A: $(cat "$work/run.out")"

# The slow request, in flight on A when it gets SIGTERM: on the wire, and A counting a request in
# flight (the load's requests take about a millisecond each, so mostly this one).
node "$here/slow.mjs" "$url_a" "$SLOW_SECONDS" "$work/slow.sent" >"$work/slow.out" 2>"$work/slow.err" &
slow_pid=$!
pids+=("$slow_pid")
for _ in $(seq 1 200); do [[ -s $work/slow.sent ]] && break; sleep 0.05; done
[[ -s $work/slow.sent ]] || fail "the slow request was not sent within 10 s"
in_flight=0
for _ in $(seq 1 200); do
  in_flight=$(curl -fsS --max-time 2 "$base_a/metrics" | sed -n 's/^elicit_http_requests_in_flight \([0-9]*\).*/\1/p' || true)
  [[ ${in_flight:-0} -ge 1 ]] && break
  sleep 0.05
done
[[ ${in_flight:-0} -ge 1 ]] || fail "A shows no request in flight within 10 s of the slow request"

status
completed_at_term=$completed
kill -TERM "$pid_a"
term_ms=$(now_ms)
echo "SIGTERM to A at $term_ms (calls completed so far: $completed_at_term; A counted $in_flight request(s) in flight)"

# A's readiness, probed straight on its port until it exits. For --drain-delay-ms after the signal
# A still accepts and serves (nginx keeps sending it work meanwhile) but answers /readyz 503; then
# it closes its listener (probes refused). Checked: the first probe that is not 200 is a 503, within
# 5 s of the signal, and no 200 after it.
probes=() first_down_ms=
for _ in $(seq 1 1000); do  # at most ~1000 x (2 s curl timeout) but it ends when A exits: 15 s + margin
  kill -0 "$pid_a" 2>/dev/null || break
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$base_a/readyz" || true)
  t=$(($(now_ms) - term_ms))
  probes+=("+${t}ms:$code")
  if [[ $code != 200 && -z $first_down_ms ]]; then first_down_ms=$t; fi
  if [[ $code == 200 && -n $first_down_ms ]]; then fail "A answered /readyz 200 at +${t} ms, after it was not ready at +${first_down_ms} ms"; fi
  [[ $t -gt $((DRAIN_DELAY_MS + DRAIN_TIMEOUT_MS + 10000)) ]] && break
  sleep 0.02
done
[[ -n $first_down_ms ]] || fail "A's /readyz never stopped answering 200 (probes: ${probes[*]})"
[[ $first_down_ms -le 5000 ]] || fail "A still ready ${first_down_ms} ms after SIGTERM"
first_down_code=$(printf '%s\n' "${probes[@]}" | sed 's/.*://' | grep -v '^200$' | head -1)
[[ $first_down_code == 503 ]] || fail "A's first not-ready probe got $first_down_code, not 503 (probes: ${probes[*]})"
codes=$(printf '%s\n' "${probes[@]}" | sed 's/.*://' | sort | uniq -c | awk '{printf "%s%s x%s", sep, $2, $1; sep=", "}')
echo "A's /readyz after SIGTERM: ${#probes[@]} probes (${codes}; 000 = connection refused), first not ready at +${first_down_ms} ms"

# A exits by itself: within the drain timeout plus a margin.
for _ in $(seq 1 $(((DRAIN_DELAY_MS + DRAIN_TIMEOUT_MS + 10000) / 50))); do kill -0 "$pid_a" 2>/dev/null || break; sleep 0.05; done
kill -0 "$pid_a" 2>/dev/null && fail "A still runs $((DRAIN_DELAY_MS + DRAIN_TIMEOUT_MS + 10000)) ms after SIGTERM"
rc_a=0
wait "$pid_a" || rc_a=$?
exit_ms=$(($(now_ms) - term_ms))
[[ $rc_a -eq 0 ]] || fail "A exited with status $rc_a"
echo "A exited 0 about ${exit_ms} ms after SIGTERM"
grep -q '"event":"draining"' "$work/A.err" || fail "A logged no {\"event\":\"draining\"}"
grep -q '"event":"stopped"' "$work/A.err" || fail "A logged no {\"event\":\"stopped\"}"
grep '"event":"draining"' "$work/A.err"
grep '"event":"stopped"' "$work/A.err"
draining_in_flight=$(sed -n 's/.*"event":"draining".*"in_flight":\([0-9]*\).*/\1/p' "$work/A.err")
[[ ${draining_in_flight:-0} -ge 1 ]] || fail "A's draining line counts no request in flight (the slow one was)"
[[ $(grep -n '"event":"draining"' "$work/A.err" | cut -d: -f1) -lt $(grep -n '"event":"stopped"' "$work/A.err" | cut -d: -f1) ]] ||
  fail "A logged stopped before draining"

# The task that was running on A: followed through nginx (so B) from now; B runs it again at the
# first tasks/get that reaches it.
node "$here/tasks.mjs" follow "http://127.0.0.1:$port/mcp" "$RUN_SECONDS" "$work/run.id" >"$work/run.out" 2>"$work/run.err" &
follow_pid=$!
pids+=("$follow_pid")

# The slow request finished.
for _ in $(seq 1 600); do kill -0 "$slow_pid" 2>/dev/null || break; sleep 0.05; done
rc_slow=0
wait "$slow_pid" || rc_slow=$?
cat "$work/slow.out"
[[ $rc_slow -eq 0 ]] || fail "the slow request in flight on A at SIGTERM did not finish well"
grep -q '(Connection: close)' "$work/slow.out" || fail "the slow request's response, sent while A drained, did not say Connection: close"

# The load goes on, through B.
status
completed_at_exit=$completed
echo "load while A drained: $((completed_at_exit - completed_at_term)) calls completed"
wait_completed $((completed_at_exit + 100)) 30
status
echo "load after A exited: $((completed - completed_at_exit)) more calls completed (through B)"
node "$here/tasks.mjs" finish "http://127.0.0.1:$port/mcp" "$work/tasks.json" >"$work/tasks.out" 2>"$work/tasks.err" ||
  fail "the tasks made on A did not complete through B: $(cat "$work/tasks.err")"
tasks_completed=$(sed -n 's/^completed \([0-9]*\)$/\1/p' "$work/tasks.out")
[[ $tasks_completed == "$TASKS" ]] || fail "$tasks_completed of $TASKS tasks completed"
for _ in $(seq 1 $(((RUN_SECONDS + 40) * 20))); do kill -0 "$follow_pid" 2>/dev/null || break; sleep 0.05; done
rc_follow=0
wait "$follow_pid" || rc_follow=$?
[[ $rc_follow -eq 0 ]] || fail "the task running on A when it drained did not complete through B: $(cat "$work/run.err")"
run_done_ms=$(($(now_ms) - term_ms))
# Whose run was it: A's ended cancelled (released at the drain), B's with the result.
run_lines() { grep '"event":"request"' "$work/$1.err" | grep '"task_run":true' | grep '"tool":"slow_compute"' || true; }
run_a=$(run_lines A | sed -n 's/.*"outcome":"\([a-z_]*\)".*/\1/p' | paste -sd, -)
run_b=$(run_lines B | sed -n 's/.*"outcome":"\([a-z_]*\)".*/\1/p' | paste -sd, -)
[[ $run_b == *result* ]] || fail "B's log shows no run of the task with a result (A: ${run_a:-none}; B: ${run_b:-none})"
[[ $run_a != *result* ]] || fail "A finished the task's run itself: it was not running when A drained (A: $run_a)"
echo "task running on A at SIGTERM: completed through B by +${run_done_ms} ms (its run ${RUN_SECONDS} s; runs: A ${run_a:-none}, B $run_b; lease ${TASK_LEASE_MS} ms, not lapsed)"

touch "$work/load.stop"
for _ in $(seq 1 600); do kill -0 "$load_pid" 2>/dev/null || break; sleep 0.05; done
kill -0 "$load_pid" 2>/dev/null && fail "the load did not stop within 30 s of its stop file"
rc_load=0
wait "$load_pid" || rc_load=$?
[[ $rc_load -eq 0 ]] || fail "load.mjs exited with status $rc_load"
summary=$(tail -n1 "$work/load.out")
read -r sent failed completed stopped_by max_latency < <(node -e '
const s = JSON.parse(process.argv[1]);
console.log(s.sent, s.failed, s.completed, s.stoppedBy.replace(/ /g, "_"), s.maxLatencyMs);' "$summary")

# Requests per process, from their JSON request logs (the load's tool only: not the slow request).
per() { grep '"event":"request"' "$work/$1.err" | grep -c '"tool":"github_username"' || true; }
outcomes() {
  grep '"event":"request"' "$work/$1.err" | grep '"tool":"github_username"' |
    sed -n 's/.*"outcome":"\([a-z_]*\)".*/\1/p' | sort | uniq -c | awk '{printf "%s%s %s", sep, $2, $1; sep=", "}'
}
served_a=$(per A) served_b=$(per B)
passed_on=$(grep -c ', ' "$work/nginx/logs/access.log" || true)
upstream_errors=$(grep -c 'upstream' "$work/nginx/logs/error.log" 2>/dev/null || true)
echo "requests sent $sent, failed $failed, calls completed $completed (A served $served_a, B served $served_b);" \
  "tasks waiting on A when it drained $TASKS, completed through B $tasks_completed; task running on A 1, completed through B 1"
echo "  outcomes logged: A: $(outcomes A); B: $(outcomes B)"
echo "  nginx passed $passed_on request(s) on to B after A failed them; its error log has $upstream_errors upstream line(s)"
grep 'upstream' "$work/nginx/logs/error.log" 2>/dev/null | sed 's/^[0-9/]* [0-9:]* //; s/, client: .*//' | sort | uniq -c | sed 's/^/    /' || true
echo "  slowest load request: $max_latency ms; the load stopped by its $stopped_by"
[[ $failed -eq 0 ]] || { cat "$work/load.err" >&2; fail "$failed request(s) of the load failed (SIGTERM at $term_ms)"; }
[[ $stopped_by == stop_file ]] || fail "the load ran into its time cap before the test stopped it"
[[ $((served_a + served_b)) -ge $sent ]] ||
  fail "the servers logged $((served_a + served_b)) load requests, fewer than the $sent sent"
ready_b=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://$(hostport "$url_b")/readyz" || true)
[[ $ready_b == 200 ]] || fail "B's /readyz answered $ready_b at the end"
echo "--- operations drain: passed"
