#!/usr/bin/env bash
# ctest openapi_lint: dumps /openapi.json from the built binary (a throwaway
# server on SQLite, not in development mode) and lints it with Redocly's
# recommended rules (redocly.yaml). Fails on any error or warning that is
# not one of the instances listed in .redocly.lint-ignore.yaml (each one
# justified there and in docs/openapi.md).
#
#   tests/openapi/lint.sh CREDENCE_BINARY WORK_DIR
# Exits 77 (ctest: skipped) when Node.js or the pinned linter is missing:
# `npm ci` in tests/openapi (scripts/test does it).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BINARY=$1
WORK=$2
REDOCLY="$HERE/node_modules/.bin/redocly"
if ! command -v node >/dev/null || [[ ! -x "$REDOCLY" ]]; then
  echo "SKIPPED: the linter is not installed (cd tests/openapi && npm ci --no-audit --no-fund)" >&2
  exit 77
fi

rm -rf "$WORK"
mkdir -p "$WORK/data"
cp "$HERE/redocly.yaml" "$HERE/.redocly.lint-ignore.yaml" "$WORK/"

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$BINARY" serve --listen "127.0.0.1:$PORT" --data-dir "$WORK/data" --threads 1 >"$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 1 150); do
  if curl -sf "http://127.0.0.1:$PORT/openapi.json" -o "$WORK/openapi.json"; then break; fi
  sleep 0.1
done
if [[ ! -s "$WORK/openapi.json" ]]; then
  echo "could not fetch /openapi.json; server log:" >&2
  cat "$WORK/server.log" >&2
  exit 1
fi
kill "$SERVER"
wait "$SERVER" 2>/dev/null || true
trap - EXIT

cd "$WORK"
# Stylish output for people, then the totals decide: warnings fail too.
"$REDOCLY" lint openapi.json --config redocly.yaml || true
"$REDOCLY" lint openapi.json --config redocly.yaml --format=json >lint.json 2>/dev/null || true
node -e '
  const r = JSON.parse(require("fs").readFileSync("lint.json", "utf8"));
  const t = r.totals;
  console.log(`redocly: ${t.errors} errors, ${t.warnings} warnings, ${t.ignored} ignored (listed in .redocly.lint-ignore.yaml)`);
  process.exit(t.errors + t.warnings === 0 ? 0 : 1);
'
