#!/usr/bin/env bash
# README.md's "What is supported" conformance rows checked against the pinned suites: the suite
# versions (package-lock.json, as installed), the server scenarios server.sh holds the sample server
# to (`server.sh --list`: the 2025-11-25 suite's `list --server`, the 2026-07-28 requirement set's
# scored ones, the pending ones and the tasks extension's), and the client scenario runs client.sh
# plays (`client.sh --list all`) beside what the suites list (`list --client`): the rows must say
# exactly those numbers and name exactly the scenarios not played. On a mismatch it prints the rows
# as they should read. Installs a suite with `npm ci` when missing, as server.sh does.
# Usage: readme_rows.sh README.md
set -euo pipefail
[[ $# -eq 1 && -f $1 ]] || { echo "usage: $0 README.md" >&2; exit 2; }
readme=$1
here=$(cd "$(dirname "$0")" && pwd)

server_2025=$("$here/server.sh" --list 2025-11-25)
server_2026=$("$here/server.sh" --list 2026-07-28)
version() { sed -n 's/^ *"version": "\([^"]*\)".*/\1/p' "$here/$1/node_modules/@modelcontextprotocol/conformance/package.json" | head -n1; }
v2025=$(version 2025-11-25)
v2026=$(version 2026-07-28)
count() { grep -c "^$1 " <<<"$2" || true; }
n2025=$(count scored "$server_2025")
scored=$(count scored "$server_2026")
pending=$(count pending "$server_2026")
extension=$(count extension "$server_2026")
pending_names=$(sed -n 's/^pending //p' <<<"$server_2026" | sed 's/.*/`&`/' | paste -sd, - | sed 's/,/, /g')

runs=$("$here/client.sh" --list all)
n_runs=$(wc -l <<<"$runs")
n_auth=$(awk '$2 ~ /^auth\// {n++} END {print n + 0}' <<<"$runs")
played=$(awk '{print $2}' <<<"$runs" | sort -u)
listed=$(for dir in 2025-11-25 2026-07-28; do
  (cd "$here/$dir" && node_modules/.bin/node node_modules/@modelcontextprotocol/conformance/dist/index.js list --client) |
    sed -n 's/^  - \([^ ]*\) .*/\1/p'
done | sort -u)
not_played=$(comm -23 <(echo "$listed") <(echo "$played") | sed 's/.*/`&`/' | paste -sd, - | sed 's/,/, /g')
[[ -n $not_played ]] || not_played=none

server_row="| conformance, server | official suite $v2025: $n2025 of $n2025 server scenarios (2025-11-25); $v2026: $scored of $scored scored 2026-07-28 scenarios, $pending pending ones ($pending_names) and $extension of the tasks extension; no expected-failures file |"
client_row="| conformance, client | $n_runs client scenario runs of both suites ($n_auth of them authorization, \`auth/*\`, with elicit::auth's OAuth client) pass with no warning; not played: $not_played |"
status=0
for row in "$server_row" "$client_row"; do
  if ! grep -qxF -- "$row" "$readme"; then
    echo "$readme: the row should read:" >&2
    echo "$row" >&2
    status=1
  fi
done
((status == 0)) && echo "README conformance rows match the pinned suites ($n2025 + $scored + $pending + $extension server scenarios, $n_runs client runs)"
exit $status
