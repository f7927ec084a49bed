#!/usr/bin/env bash
# The terminal form in a real terminal: `elicitgen ask` and `elicitgen client --stdio` run in a tmux
# pane; keys are typed with send-keys, and the screen (capture-pane) and the printed JSON are
# checked. Synchronisation is by polling the screen for the text each step waits for (at most
# WAIT_SECONDS per step), never by sleeping a fixed time, so it holds on a slow or busy machine.
#
# Usage: terminal_form_tmux.sh ELICITGEN STDIO_SERVER SCHEMAS_DIR WORK_DIR
set -euo pipefail

elicitgen=$1 server=$2 schemas=$3 work=$4
wait_seconds=${WAIT_SECONDS:-60}
command -v tmux >/dev/null || {
  echo "FAIL: tmux is not installed (scripts/setup-debian.sh installs it)"
  exit 1
}
mkdir -p "$work"
work=$(cd "$work" && pwd)
# A server of our own (its own socket, no user configuration), ended on exit whatever happens.
socket="elicitgen-tty-$$"
tmx() { tmux -L "$socket" -f /dev/null "$@"; }
# kill-server leaves the socket file behind: removed too.
socket_file="${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$socket"
trap 'tmx kill-server 2>/dev/null || true; rm -f "$socket_file"' EXIT
# A session that lives as long as the test: each step kills its own session and makes a new one,
# and without this one the server would exit between the two (then the new-session that raced its
# exit failed, 2 runs in 6 under load: "server exited unexpectedly").
tmx new-session -d -s keep "sleep 86400"

failures=0
fail() {
  echo "FAIL: $*"
  echo "---- screen ----"
  screen
  echo "----------------"
  failures=$((failures + 1))
}

screen() { tmx capture-pane -p -t t -S -300; }

# Polls the screen until it shows `text` (a fixed string) at least `n` times (default once).
wait_for() {
  local text=$1 n=${2:-1} polls=$((wait_seconds * 10)) i
  for ((i = 0; i < polls; i++)); do
    if (($(screen | grep -cF -- "$text" || true) >= n)); then return 0; fi
    sleep 0.1
  done
  fail "waited ${wait_seconds}s for \"$text\" (x$n)"
  exit 1
}

# Types `text` and Enter (-l: literally, so ":cancel" or "1,3" are not key names).
type_line() {
  tmx send-keys -t t -l -- "$1"
  tmx send-keys -t t Enter
}

# Starts a fresh pane running a plain shell, and runs `cmd` in it: stdout also to $work/out.json,
# then "EXIT=<status of cmd>" on the screen (wait for "EXIT=" to know it has ended).
run_in_pane() {
  tmx kill-session -t t 2>/dev/null || true
  rm -f "$work/out.json"
  tmx new-session -d -s t -x 160 -y 60 "env -i PATH=$PATH TERM=xterm-256color HOME=$work PS1='$ ' bash --norc --noprofile"
  wait_for '$'
  # Quoted so that the command line itself, echoed on the screen, does not read "EXIT=".
  type_line "$1 | tee $work/out.json; echo \"EXIT\"=\"\${PIPESTATUS[0]}\""
}

expect_screen() { screen | grep -qF -- "$1" || fail "the screen does not show \"$1\""; }
expect_exit() { expect_screen "EXIT=$1"; }
expect_json() {
  diff <(printf '%s\n' "$1") "$work/out.json" >/dev/null || fail "printed $(cat "$work/out.json"), expected $1"
}

echo "== elicitgen ask: every kind, a wrong value corrected, a default kept"
run_in_pane "$elicitgen ask $schemas/sep1034_defaults.json"
wait_for "[1/5] name"
expect_screen "Test client default value handling - please accept with defaults"
expect_screen ":decline declines the form; :cancel or Ctrl-D cancels it"
expect_screen 'default: "John Doe"'
type_line "Ada"
wait_for "[2/5] age"
type_line "forty"
wait_for "error: /age: enter a whole number"
type_line "41"
wait_for "[3/5] score"
type_line ""
wait_for "[4/5] status"
expect_screen "2) inactive"
type_line "2"
wait_for "[5/5] verified"
type_line "n"
wait_for "Send this? [Y/n]"
expect_screen '  score: 95.5'
type_line "y"
wait_for "EXIT="
expect_exit 0
expect_json '{
  "name": "Ada",
  "age": 41,
  "score": 95.5,
  "status": "inactive",
  "verified": false
}'

echo "== elicitgen ask: Ctrl-D cancels"
run_in_pane "$elicitgen ask $schemas/contact_information.json"
wait_for "[1/3] name"
tmx send-keys -t t C-d
wait_for "EXIT="
expect_exit 1
expect_screen "(end of input: cancel)"
expect_json '{"action":"cancel"}'

echo "== elicitgen ask --jsonl: an option chosen twice is refused, the answer one ElicitResult line"
run_in_pane "$elicitgen ask --jsonl $schemas/sep1330_enums.json"
wait_for "[1/5] Untitled single-select"
type_line ""
wait_for "[2/5] Titled single-select"
type_line ""
wait_for "[3/5] Legacy titled enum"
type_line ""
wait_for "[4/5] Untitled multi-select"
type_line "1,3,3"
wait_for "error: /untitledMulti: option 3 (option3) is chosen twice: name each option once"
type_line "1,3"
wait_for "[5/5] Titled multi-select"
type_line ""
wait_for "Send this? [Y/n]"
expect_screen "  Untitled multi-select: option1, option3"
type_line "y"
wait_for "EXIT="
expect_exit 0
expect_json '{"action":"accept","content":{"untitledMulti":["option1","option3"]}}'

echo "== elicitgen client --stdio, 2025-11-25: a wrong email corrected, the tool's result"
run_in_pane "$elicitgen client --stdio $server --protocol 2025-11-25 call contact_information"
wait_for "[1/3] name"
expect_screen "Please provide your contact information"
type_line "Ada Lovelace"
wait_for "[2/3] email"
type_line "ada-at-example"
wait_for "error: /email:"
type_line "ada@example.com"
wait_for "[3/3] age"
type_line "12"
wait_for "error: /age:"
type_line ":skip"
wait_for "Send this?"
type_line ""
wait_for "EXIT="
expect_exit 0
grep -qF '"text": "accept: {\"email\":\"ada@example.com\",\"name\":\"Ada Lovelace\"}"' "$work/out.json" ||
  fail "the tool result is $(cat "$work/out.json")"

echo "== elicitgen client --stdio, 2026-07-28: :cancel reaches the tool (exit 3: a question cancelled)"
run_in_pane "$elicitgen client --stdio $server --protocol 2026-07-28 call github_username"
wait_for "[1/1] name"
type_line ":cancel"
wait_for "EXIT="
expect_exit 3
grep -qF '"text": "cancel"' "$work/out.json" || fail "the tool result is $(cat "$work/out.json")"

echo "== elicitgen client --stdio: URL consent"
run_in_pane "$elicitgen client --stdio $server call connect_account"
wait_for "Open this page? [y/N]"
expect_screen "  URL:  https://mcp.example.com/connect"
expect_screen "                ^^^^^^^^^^^^^^^"
expect_screen "  Host: mcp.example.com"
type_line "y"
wait_for "EXIT="
expect_exit 0
expect_screen "Open it yourself: https://mcp.example.com/connect"
grep -qF '"text": "url accepted"' "$work/out.json" || fail "the tool result is $(cat "$work/out.json")"

if ((failures)); then
  echo "$failures failure(s)"
  exit 1
fi
echo "all passed"
