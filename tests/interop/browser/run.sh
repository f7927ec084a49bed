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
# With `a11y` first: the pages of `elicitgen ask --browser --no-open` audited by axe-core
# (browser_a11y.mjs; axe-core and @axe-core/puppeteer pinned beside puppeteer-core, .npmrc keeping
# out their peer `puppeteer`, which would download a browser) with the WCAG 2.1 A and AA rules, zero
# violations required: every_field.json (every kind of field the page renders) in English and
# every_field_ko.json in Korean (Accept-Language en, ko), each page in light and dark
# (prefers-color-scheme): the form as shown (<html lang>, Content-Language); the form with errors
# (invalid values, the browser's checks off: 422, the error summary focused, each invalid control
# aria-invalid and described by its error); a 404 (an unknown id); the page after Decline. Then the
# keyboard alone (English in light, Korean in dark): Tab reaches every control in document order,
# each with a focus ring of 3:1 or more on the page (WCAG 1.4.11, which axe does not measure), keys
# fill in every field, Enter on Accept submits, the thanks page is audited and `elicitgen ask`
# prints what was typed. Screenshots (browser-form-en-every-field.png, browser-form-ko.png,
# browser-form-ko-errors.png, 800 px wide, full page) go where the other modes' go.
# Usage: run.sh 2025-11-25|2026-07-28 <elicitgen_http_server> <docs dir> [<out dir>]
#        run.sh sign-in 2025-11-25|2026-07-28 <elicitgen_http_server>
#        run.sh a11y <elicitgen> <docs dir> [<out dir>]
set -euo pipefail
usage() {
  echo "usage: $0 2025-11-25|2026-07-28 <elicitgen_http_server> <docs dir> [<out dir>]" >&2
  echo "       $0 sign-in 2025-11-25|2026-07-28 <elicitgen_http_server>" >&2
  echo "       $0 a11y <elicitgen> <docs dir> [<out dir>]" >&2
  exit 2
}
chromium=${CHROMIUM:-/usr/bin/chromium}
# npm ci when a package of the lock is missing (a node_modules from before one was added too).
npm_ready() {
  [[ -d node_modules/puppeteer-core && -d node_modules/axe-core && -d node_modules/@axe-core/puppeteer ]] ||
    npm ci --no-audit --no-fund --loglevel=error
}
work=
cleanup() { [[ -n $work ]] && rm -rf "$work"; return 0; }
trap cleanup EXIT
# Where the screenshots go: <docs dir>/images with ELICITGEN_UPDATE_SCREENSHOTS=1, else <out dir>,
# else a temporary directory (removed), so that taking them is tested too.
screenshot_dir() { # <docs dir> [<out dir>]
  if [[ ${ELICITGEN_UPDATE_SCREENSHOTS:-} == 1 ]]; then
    shots=$1/images
  elif [[ -n ${2:-} ]]; then
    shots=$2
  else
    work=$(mktemp -d)
    shots=$work
  fi
}
if [[ ${1:-} == a11y ]]; then
  [[ ($# -eq 3 || $# -eq 4) && -x $2 && -d $3 ]] || usage
  elicitgen_bin=$(realpath "$2")
  shots=
  screenshot_dir "$(realpath "$3")" "${4:+$(realpath -m "$4")}"
  [[ -x $chromium ]] || { echo "chromium is not installed (Debian: chromium; scripts/setup-debian.sh installs it)" >&2; exit 1; }
  # Without a Korean font the Korean pages are audited all the same, but their screenshots show
  # boxes: not good enough for docs/images.
  if ! fc-list :lang=ko family 2>/dev/null | grep -q .; then
    echo "no Korean font: the Korean screenshots show boxes (Debian: fonts-nanum; scripts/setup-debian.sh installs it)" >&2
    if [[ ${ELICITGEN_UPDATE_SCREENSHOTS:-} == 1 ]]; then exit 1; fi
  fi
  cd "$(dirname "$0")"
  npm_ready
  status=0
  CHROMIUM=$chromium node browser_a11y.mjs "$elicitgen_bin" . "$shots" || status=$?
  exit "$status" # not exec: the EXIT trap removes a temporary screenshot directory
fi
if [[ ${1:-} == sign-in ]]; then
  [[ $# -eq 3 && ($2 == 2025-11-25 || $2 == 2026-07-28) && -x $3 ]] || usage
  server_bin=$(realpath "$3")
  [[ -x $chromium ]] || { echo "chromium is not installed (Debian: chromium; scripts/setup-debian.sh installs it)" >&2; exit 1; }
  cd "$(dirname "$0")"
  npm_ready
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
npm_ready

shots=
[[ $revision == 2026-07-28 ]] && screenshot_dir "$docs" "${4:-}"
args=("$revision" "$server_bin")
[[ -n $shots ]] && args+=("$shots")
# (Debian's launcher may print "[: ...: unexpected operator" from /etc/chromium.d/dev-shm: harmless.)
CHROMIUM=$chromium node browser_form.mjs "${args[@]}"
