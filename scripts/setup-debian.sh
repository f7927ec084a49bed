#!/usr/bin/env bash
# Installs what elicitgen needs to build and test on Debian 12, from Debian's packages only, plus
# any packages named as arguments (e.g. clang for fuzzing). Skips apt entirely when everything is
# already installed.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config nlohmann-json3-dev libcli11-dev catch2
          libkainjow-mustache-dev libre2-dev libboost-dev libssl-dev openssl libbenchmark-dev libsodium-dev libhiredis-dev
          libicu-dev icu-devtools  # the message catalog (ICU resource bundles, MessageFormat)
          libunistring-dev locales  # the terminal form's display widths; its Korean test's locale (below)
          prometheus-cpp-dev prometheus  # the operations wing's metrics; its scrape test runs a real Prometheus
          redis-server nginx json-schema-test-suite tmux doxygen ccache
          chromium  # the browser form test (tests/interop/browser/) drives it with puppeteer-core
          fonts-nanum)  # Korean glyphs for chromium: the Korean form page's screenshots (browser_a11y.mjs)
# The end-to-end tests drive the sample server with the official TypeScript SDK: Node.js >= 18
# and npm. Debian's nodejs is used only when the machine has no node of its own.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)
packages+=("$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# The terminal form's test in Korean runs with LANG=ko_KR.UTF-8 (tests/cli/terminal_form_tmux.sh).
if ! locale -a 2>/dev/null | grep -qix 'ko_KR.utf8'; then
  echo "setup: generating the locale ko_KR.UTF-8"
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" localedef -i ko_KR -f UTF-8 ko_KR.UTF-8
fi
