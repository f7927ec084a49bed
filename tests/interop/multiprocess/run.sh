#!/usr/bin/env bash
# Several processes, one service (MCP 2026-07-28 is stateless): two sample HTTP servers sharing
# their requestState keys behind nginx (round robin, loopback), and a client whose multi-round tool
# call lands its rounds on both processes and completes; a third process with a key of its own
# refuses the same state. Then a URL-mode flow finished out of band: the "web page" (the client,
# here) marks the interaction complete in Redis (redis-server on loopback, started here), and the
# retry sees it on whichever process serves it. All of it twice: through nginx's plain listener, and
# through a TLS listener of nginx (TLS ends there, with a certificate made here by a CA made here that
# the client trusts), in front of the same plain servers. Then `elicitgen client` (our client's TLS)
# through that listener: a form answered when it trusts the CA made here, and refused, naming the
# host, when it does not or when the URL names a host the certificate does not. The servers keep the
# api_key tool's browser form pages in the same Redis (--forms-in-redis), under nginx's origin
# (--public-origin: the same URL whichever process opens the page): client.mjs opens a page through
# one process and submits it on the other.
# Then tasks (tasks.mjs; --tasks-in-redis): a confirm_delete task made on A is asked and answered
# through B and completes, read through nginx on both; a slow_compute task working on A is cancelled
# through B; a fourth process D (same keys, 1 s lease) is killed while its task works, and B reports
# the task failed once the lease lapsed.
# And `elicitgen client` (our client) runs a confirm_delete task through nginx's TLS listener, its
# polls and answer landing on both processes; then again with --task-notifications, its status
# coming on a subscriptions/listen stream held by one process while the other may change the task.
# With `chromium` first (CTest multiprocess_nginx_chromium): the same processes, then the api_key
# page in a real browser instead of the clients above (../browser/browser_multiprocess.mjs: Debian's
# chromium, puppeteer-core pinned in ../browser/package-lock.json): the tool call through nginx, the
# page opened in two tabs through nginx, the key submitted in one (thank-you page) on the other
# process than its GET, the retry through nginx on the process that did not take the POST returns
# "connected openai with a key of 30 characters", the second tab's submission is refused (410) and a
# new visit on the other process too. Which process served each request is read from nginx's access
# log ($upstream_addr) and printed.
# Usage: run.sh <elicitgen_http_server> [<elicitgen>]
#        run.sh chromium <elicitgen_http_server>
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
browser=
if [[ ${1:-} == chromium ]]; then browser=1; shift; fi
[[ $# -ge 1 && -x $1 ]] || { echo "usage: $0 [chromium] <elicitgen_http_server> [<elicitgen>]" >&2; exit 2; }
server=$1
elicitgen=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
chromium=${CHROMIUM:-/usr/bin/chromium}
if [[ -n $browser ]]; then
  [[ -x $chromium ]] || { echo "chromium is not installed (Debian: chromium; scripts/setup-debian.sh installs it)" >&2; exit 1; }
  [[ -d $here/../browser/node_modules/puppeteer-core ]] ||
    (cd "$here/../browser" && npm ci --no-audit --no-fund --loglevel=error)
fi
work=$(mktemp -d)
chmod 755 "$work"  # nginx workers may run as another user
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
[[ -x $nginx_bin ]] || { echo "nginx is not installed (Debian: nginx; scripts/setup-debian.sh installs it)"; exit 1; }

# A shared key (32 bytes, base64) for the pair, another for the odd one out.
head -c 32 /dev/urandom | base64 > "$work/shared.keys"
head -c 32 /dev/urandom | base64 > "$work/other.keys"

source "$here/../ports.sh"

redis_bin=$(command -v redis-server || echo /usr/bin/redis-server)
[[ -x $redis_bin ]] || { echo "redis-server is not installed (Debian: redis-server; scripts/setup-debian.sh installs it)"; exit 1; }
redis_port=$(free_ports 1)
"$redis_bin" --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" >"$work/redis.log" 2>&1 &
pids+=($!)
wait_port "$redis_port"

# Starts a server in the background (in this shell, so cleanup knows its pid).
# nginx's ports, chosen now: the servers name the plain one as their pages' public origin.
# Both in one call: two separate lookups can return the same port (the first is not held), and nginx
# then refuses the plain listener as an ssl one without a certificate (seen once in CI).
read -r port tls_port < <(free_ports 2)
start_server() {
  "$server" --port 0 --instance "$1" --state-keys "$2" --redis "$redis_port" --forms-in-redis --tasks-in-redis \
    --public-origin "http://127.0.0.1:$port" "${@:3}" >"$work/$1.out" 2>"$work/$1.err" &
  pids+=($!)
}
# The URL a server printed on its first line, waiting up to 60 s for it.
url_of() {
  local out="$work/$1.out"
  for _ in $(seq 1 600); do
    if [[ -s $out ]]; then head -n1 "$out"; return 0; fi
    sleep 0.1
  done
  echo "server $1 did not start" >&2; cat "$work/$1.err" >&2; return 1
}
start_server A "$work/shared.keys"
start_server B "$work/shared.keys"
start_server C "$work/other.keys"
# D shares the keys but not nginx: tasks.mjs kills it while a task of its works (a 1 s lease).
start_server D "$work/shared.keys" --task-lease-ms 1000
pid_d=${pids[-1]}
url_a=$(url_of A)
url_b=$(url_of B)
url_c=$(url_of C)
url_d=$(url_of D)
hostport() { local u=${1#http://}; echo "${u%%/*}"; }

# A CA and a certificate for 127.0.0.1 it signs, for nginx's TLS listener.
tls() { openssl "$@" >>"$work/openssl.log" 2>&1 || { cat "$work/openssl.log" >&2; exit 1; }; }
tls req -x509 -newkey rsa:2048 -nodes -keyout "$work/ca.key" -out "$work/ca.crt" -days 2 -subj /CN=multiprocess-test-ca
tls req -newkey rsa:2048 -nodes -keyout "$work/proxy.key" -out "$work/proxy.csr" -subj /CN=127.0.0.1
echo "subjectAltName=IP:127.0.0.1" >"$work/proxy.ext"
tls x509 -req -in "$work/proxy.csr" -CA "$work/ca.crt" -CAkey "$work/ca.key" -CAcreateserial -days 2 \
  -extfile "$work/proxy.ext" -out "$work/proxy.crt"

mkdir -p "$work/nginx/logs"
cat > "$work/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
error_log $work/nginx/logs/error.log warn;
pid $work/nginx/nginx.pid;
events { worker_connections 256; }
http {
  # Which process served each request (\$upstream_addr; "-" when nginx answered itself).
  log_format upstream '\$request_method \$uri \$status \$upstream_addr';
  access_log $work/nginx/logs/access.log upstream;
  client_body_temp_path $work/nginx/body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;
  upstream mcp { server $(hostport "$url_a"); server $(hostport "$url_b"); }
  server {
    listen 127.0.0.1:$port;
    location = /favicon.ico { return 404; }  # a browser's own request: not one of the flow's
    location / {
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Host 127.0.0.1:$port;
      proxy_set_header Connection "";
      proxy_buffering off;
    }
  }
  server {
    listen 127.0.0.1:$tls_port ssl;
    ssl_certificate $work/proxy.crt;
    ssl_certificate_key $work/proxy.key;
    ssl_protocols TLSv1.2 TLSv1.3;
    location / {
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Host 127.0.0.1:$tls_port;
      proxy_set_header Connection "";
      proxy_buffering off;
    }
  }
}
CONF
"$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" &
pids+=($!)
wait_port "$port"
wait_port "$tls_port"

if [[ -n $browser ]]; then
  # In the background, so that the trap stops it too (puppeteer closes chromium when node ends).
  # (Debian's launcher may print "[: ...: unexpected operator" from /etc/chromium.d/dev-shm: harmless.)
  CHROMIUM=$chromium node "$here/../browser/browser_multiprocess.mjs" "http://127.0.0.1:$port" \
    "$work/nginx/logs/access.log" "$(hostport "$url_a")" "$(hostport "$url_b")" &
  pids+=($!)
  wait $!
  echo "--- multiprocess chromium: passed"
  exit 0
fi

node "$here/client.mjs" "http://127.0.0.1:$port/mcp" "$url_c" "$redis_port" "$url_a" "$url_b" "http://127.0.0.1:$port"
echo "--- tasks across processes (tasks.mjs)"
node "$here/tasks.mjs" "http://127.0.0.1:$port/mcp" "$url_a" "$url_b" "$url_c" "$url_d" "$pid_d"
echo "--- again, over TLS to nginx (https://127.0.0.1:$tls_port/mcp)"
NODE_EXTRA_CA_CERTS="$work/ca.crt" node "$here/client.mjs" "https://127.0.0.1:$tls_port/mcp" "$url_c" "$redis_port" \
  "$url_a" "$url_b" "http://127.0.0.1:$port"

if [[ -n $elicitgen ]]; then
  https_url="https://127.0.0.1:$tls_port/mcp"
  echo '{"action":"accept","content":{"name":"octocat"}}' >"$work/answers.jsonl"
  echo "--- elicitgen client over TLS to nginx, trusting the CA made here ($https_url)"
  out=$("$elicitgen" client --url "$https_url" --ca-file "$work/ca.crt" call github_username --answers "$work/answers.jsonl")
  grep -q 'accept: {\\"name\\":\\"octocat\\"}' <<<"$out" || { echo "unexpected result: $out"; exit 1; }
  echo "--- elicitgen client: a confirm_delete task through nginx (its tasks/get and tasks/update on both processes)"
  echo '{"action":"accept","content":{"confirm":true}}' >"$work/confirm.jsonl"
  out=$("$elicitgen" client --url "$https_url" --ca-file "$work/ca.crt" --answers "$work/confirm.jsonl" \
    call confirm_delete '{"filename":"report.pdf"}' 2>"$work/task.err")
  cat "$work/task.err"
  grep -q '"text": "deleted report.pdf"' <<<"$out" || { echo "unexpected result: $out"; exit 1; }
  grep -q ': input_required (waiting for input)' "$work/task.err" || { echo "no input_required status line"; exit 1; }
  grep -q ': completed' "$work/task.err" || { echo "no completed status line"; exit 1; }
  echo "--- the same with --task-notifications: its status on a subscriptions/listen stream through nginx, from whichever process changes it"
  out=$("$elicitgen" client --url "$https_url" --ca-file "$work/ca.crt" --answers "$work/confirm.jsonl" --task-notifications \
    call confirm_delete '{"filename":"notes.pdf"}' 2>"$work/task-listen.err")
  cat "$work/task-listen.err"
  grep -q '"text": "deleted notes.pdf"' <<<"$out" || { echo "unexpected result: $out"; exit 1; }
  grep -q ': the server sends its notifications/tasks' "$work/task-listen.err" || { echo "no acknowledgment"; exit 1; }
  grep -q ': completed' "$work/task-listen.err" || { echo "no completed status line"; exit 1; }
  echo "--- without the CA: refused"
  if err=$("$elicitgen" client --url "$https_url" list 2>&1); then echo "accepted a certificate nobody trusts"; exit 1; fi
  grep -q "not trusted for 127.0.0.1" <<<"$err" || { echo "unexpected error: $err"; exit 1; }
  echo "--- a name the certificate does not carry (localhost; it names IP 127.0.0.1): refused"
  if err=$("$elicitgen" client --url "https://localhost:$tls_port/mcp" --ca-file "$work/ca.crt" list 2>&1); then
    echo "accepted a certificate for another name"; exit 1
  fi
  grep -q "not trusted for localhost: hostname mismatch" <<<"$err" || { echo "unexpected error: $err"; exit 1; }
fi
echo "--- multiprocess: all passed"
