# Sourced by the interop suites' run.sh: start_http_server <binary> [arguments...] starts an
# elicitgen Streamable HTTP server on a free loopback port (--port 0), waits up to 60 s (sanitizers,
# a busy machine) for the URL it prints first, and sets `url` to it. The server is stopped when the
# script exits (an EXIT trap).
start_http_server() {
  http_server_url_file=$(mktemp)
  "$@" --port 0 >"$http_server_url_file" &
  http_server_pid=$!
  trap 'kill $http_server_pid 2>/dev/null || true; wait $http_server_pid 2>/dev/null || true; rm -f "$http_server_url_file"' EXIT
  for _ in $(seq 1200); do [[ -s $http_server_url_file ]] && break; sleep 0.05; done
  [[ -s $http_server_url_file ]] || { echo "the server printed no URL within 60 s" >&2; exit 1; }
  url=$(head -n1 "$http_server_url_file")
}
