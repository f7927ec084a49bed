#!/usr/bin/env bash
# The api_key tool's URL-mode page in a real browser: Debian's chromium (headless, --no-sandbox),
# driven by puppeteer-core (pinned in package-lock.json, `npm ci` when node_modules is missing; no
# browser download), on the system's node. The sample HTTP server runs on a free loopback port
# (browser_form.mjs starts it and always stops it); the MCP client is plain fetch() JSON-RPC. One
# protocol revision per run:
#   2026-07-28  tools/call → input_required with the page's URL; the page checked as shown (title,
#               message, labels, GitHub chosen, a password input, no script, CSP); a key too short
#               refused by the browser (minlength), then by the server with the browser's check off
#               (422, aria-invalid, aria-describedby naming the error, the summary, the service kept);
#               a valid key while the retry waits: "connected openai with a key of 28 characters";
#               a second tab's submission 410, the page 410; Decline → "api key declined"; a POST
#               without the CSRF token 403, then Cancel → "api key cancelled"; a page that lives 2 s
#               (the tool's expires_in_ms) submitted after its deadline 410 "expired", the retry →
#               "api key timed_out", the URL still 410
#   2025-11-25  a session and its GET stream; tools/call answered by an SSE stream carrying
#               elicitation/create (url mode), the consent posted, the page filled in (422, then
#               200), the result on the call's stream and notifications/elicitation/complete on the
#               session's; Decline on the page → "api key declined"; the consent declined → "api key
#               declined", the page withdrawn (410)
# Screenshots (2026-07-28: browser-form-light.png, -dark.png, -errors.png, 800x900) go to
# <out dir> (default: a temporary directory, removed), or to <docs dir>/images with
# ELICITGEN_UPDATE_SCREENSHOTS=1, which is how docs/images/ is refreshed: the test never writes into
# the source tree otherwise.
# With `sign-in` first: the form pages' own sign-in at a real OpenID provider (browser_sign_in.mjs,
# either revision): ../oauth's authorization-server.mjs (oidc-provider, on ../oauth's pinned node;
# `npm ci` there too when missing) and the sample server with --forms-client-id; octocat's MCP
# client (fetch, its own bearer token) gets the page's URL; hubot signed in in chromium opens it:
# 403, no form, no CSRF token; octocat signed in in a fresh incognito context: the form, the
# session cookie as chromium keeps it (__Host-, Secure, HttpOnly, SameSite=Lax over
# http://127.0.0.1), the key submitted, the tool's result.
# Usage: run.sh 2025-11-25|2026-07-28 <elicitgen_http_server> <docs dir> [<out dir>]
#        run.sh sign-in 2025-11-25|2026-07-28 <elicitgen_http_server>
set -euo pipefail
usage() {
  echo "usage: $0 2025-11-25|2026-07-28 <elicitgen_http_server> <docs dir> [<out dir>]" >&2
  echo "       $0 sign-in 2025-11-25|2026-07-28 <elicitgen_http_server>" >&2
  exit 2
}
chromium=${CHROMIUM:-/usr/bin/chromium}
if [[ ${1:-} == sign-in ]]; then
  [[ $# -eq 3 && ($2 == 2025-11-25 || $2 == 2026-07-28) && -x $3 ]] || usage
  server_bin=$(realpath "$3")
  [[ -x $chromium ]] || { echo "chromium is not installed (Debian: chromium; scripts/setup-debian.sh installs it)" >&2; exit 1; }
  cd "$(dirname "$0")"
  [[ -d node_modules/puppeteer-core ]] || npm ci --no-audit --no-fund --loglevel=error
  if [[ ! -d ../oauth/node_modules/oidc-provider || ! -x ../oauth/node_modules/.bin/node ]]; then
    (cd ../oauth && npm ci --no-audit --no-fund --loglevel=error)
  fi
  CHROMIUM=$chromium exec node browser_sign_in.mjs "$2" "$server_bin" ../oauth
fi
[[ ($# -eq 3 || $# -eq 4) && -x $2 && -d $3 ]] || usage
revision=$1
case "$revision" in
  2025-11-25 | 2026-07-28) ;;
  *) usage ;;
esac
server_bin=$(realpath "$2")
docs=$(realpath "$3")
[[ -x $chromium ]] || { echo "chromium is not installed (Debian: chromium; scripts/setup-debian.sh installs it)" >&2; exit 1; }
cd "$(dirname "$0")"
if [[ ! -d node_modules/puppeteer-core ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi

work=
cleanup() { [[ -n $work ]] && rm -rf "$work"; return 0; }
trap cleanup EXIT
shots=
if [[ $revision == 2026-07-28 ]]; then
  if [[ ${ELICITGEN_UPDATE_SCREENSHOTS:-} == 1 ]]; then
    shots=$docs/images
  elif [[ $# -eq 4 ]]; then
    shots=$4
  else
    work=$(mktemp -d)
    shots=$work
  fi
fi
args=("$revision" "$server_bin")
[[ -n $shots ]] && args+=("$shots")
# (Debian's launcher may print "[: ...: unexpected operator" from /etc/chromium.d/dev-shm: harmless.)
CHROMIUM=$chromium node browser_form.mjs "${args[@]}"
