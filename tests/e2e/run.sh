#!/usr/bin/env bash
# Runs the TypeScript SDK end-to-end tests; installs the pinned SDK (package-lock.json) first when
# it is missing. Usage: run.sh <sample stdio server binary>
set -euo pipefail
cd "$(dirname "$0")"
if [[ ! -d node_modules/@modelcontextprotocol/sdk ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
ELICITGEN_STDIO_SERVER="$1" node --test stdio.test.mjs
