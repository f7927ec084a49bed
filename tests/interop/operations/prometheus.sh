#!/usr/bin/env bash
# The sample server's /metrics as a real Prometheus sees it (issue 48, operations). `promtool check
# metrics` lints the exposition (text format 0.0.4) twice: as the server starts (no request counted
# yet) and after the calls below (labelled counters, the duration histogram). Then Prometheus (the
# Debian package, started here on loopback, scraping every second) scrapes the server while a client
# (calls.mjs, fetch() only) makes N 2026-07-28 tools/call of a form tool, each over two rounds
# (input_required, then the retry with the answer and the same requestState), one retry of which is
# first sent with a tampered requestState (refused: -32602). Prometheus's HTTP API must then show
# exactly N input_required and N result outcomes, 2N+1 tools/call durations observed, one -32602 and
# one refused state, and the target up; then M more calls and it must see the counters move to N+M.
# Why: the counters are only worth something if a stock Prometheus accepts, scrapes and sums them
# as the names and labels promise (counters that count each request once, in the right outcome).
# Usage: prometheus.sh <elicitgen_http_server>
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
[[ $# -eq 1 && -x $1 ]] || { echo "usage: $0 <elicitgen_http_server>" >&2; exit 2; }
server=$1
here=$(cd "$(dirname "$0")" && pwd)
N=5  # calls before the first look
M=3  # calls after it

prometheus_bin=$(command -v prometheus || echo /usr/bin/prometheus)
promtool_bin=$(command -v promtool || echo /usr/bin/promtool)
[[ -x $prometheus_bin && -x $promtool_bin ]] ||
  { echo "prometheus/promtool are not installed (Debian: prometheus)" >&2; exit 1; }
command -v node >/dev/null || { echo "node is not installed (Debian: nodejs)" >&2; exit 1; }
command -v curl >/dev/null || { echo "curl is not installed (Debian: curl)" >&2; exit 1; }

source "$here/lib.sh"
fail() {
  echo "FAIL: $*" >&2
  echo "--- server stderr (last 30 lines)" >&2; tail -n 30 "$work/server.err" >&2 || true
  echo "--- prometheus log (last 30 lines)" >&2; tail -n 30 "$work/prometheus.log" >&2 || true
  exit 1
}

"$server" --port 0 --instance prometheus >"$work/server.out" 2>"$work/server.err" &
pids+=($!)
url=$(url_of server)
hostport=$(hostport "$url")
base="http://$hostport"
echo "server: $url"

# Lints a scrape of /metrics; prints promtool's output (nothing when there is nothing to say).
lint_metrics() {
  curl -fsS --max-time 10 "$base/metrics" >"$work/metrics.txt" || fail "GET /metrics failed"
  echo "--- promtool check metrics ($1: $(grep -vc '^#' "$work/metrics.txt") samples)"
  local out rc=0
  out=$("$promtool_bin" check metrics <"$work/metrics.txt" 2>&1) || rc=$?
  echo "${out:-(no output)}"
  echo "promtool exit status: $rc"
  [[ $rc -eq 0 ]] || { cat "$work/metrics.txt" >&2; fail "promtool check metrics refused the exposition"; }
}
lint_metrics "at start"

prom_port=$(free_ports 1)
cat >"$work/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: elicitgen
    metrics_path: /metrics
    static_configs:
      - targets: ['$hostport']
YML
"$promtool_bin" check config "$work/prometheus.yml" >/dev/null || fail "promtool check config refused prometheus.yml"
"$prometheus_bin" --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
  --web.listen-address="127.0.0.1:$prom_port" --log.level=warn >"$work/prometheus.log" 2>&1 &
prom_pid=$!
pids+=("$prom_pid")
prom="http://127.0.0.1:$prom_port"
ready=
for _ in $(seq 1 120); do
  kill -0 "$prom_pid" 2>/dev/null || fail "prometheus exited before it was ready"
  if curl -fsS --max-time 2 "$prom/-/ready" >/dev/null 2>&1; then ready=1; break; fi
  sleep 0.5
done
[[ -n $ready ]] || fail "prometheus not ready within 60 s ($prom/-/ready)"
echo "prometheus: $prom (scraping $hostport every 1 s)"

echo "--- $N form calls over two rounds, one tampered retry"
node "$here/calls.mjs" "$url" "$N" --tamper || fail "the calls did not go as expected"

calls='elicit_requests_total{method="tools/call"'
echo "--- Prometheus's view (polled, at most 60 s)"
node "$here/promql.mjs" "$prom" 60 \
  'up{job="elicitgen"}=1' \
  "sum($calls,outcome=\"input_required\"})=$N" \
  "sum($calls,outcome=\"result\"})=$N" \
  "sum($calls,outcome=\"error\"})=1" \
  'sum(elicit_request_errors_total{method="tools/call",code="-32602"})=1' \
  "sum(elicit_request_duration_seconds_count{method=\"tools/call\",revision=\"2026-07-28\"})=$((2 * N + 1))" \
  'elicit_request_states_refused_total{job="elicitgen"}=1' \
  'elicit_http_draining{job="elicitgen"}=0' \
  'count(elicit_tasks{job="elicitgen"})=5' \
  'sum(elicit_tasks{job="elicitgen"})=0' \
  'elicit_form_pages_open{job="elicitgen"}=0' ||
  fail "Prometheus did not see the first $N calls"
lint_metrics "after the calls"

echo "--- $M more calls: the counters move"
node "$here/calls.mjs" "$url" "$M" || fail "the further calls did not go as expected"
node "$here/promql.mjs" "$prom" 60 \
  'up{job="elicitgen"}=1' \
  "sum($calls,outcome=\"input_required\"})=$((N + M))" \
  "sum($calls,outcome=\"result\"})=$((N + M))" \
  "sum(elicit_request_duration_seconds_count{method=\"tools/call\",revision=\"2026-07-28\"})=$((2 * (N + M) + 1))" \
  'elicit_request_states_refused_total{job="elicitgen"}=1' ||
  fail "Prometheus did not see the counters move to $((N + M))"

# Prometheus logs at warn level: anything it said (a failed scrape, a parse error) is shown.
if [[ -s $work/prometheus.log ]]; then echo "--- prometheus log"; cat "$work/prometheus.log"; fi
echo "--- operations prometheus: passed"
