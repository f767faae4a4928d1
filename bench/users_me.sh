#!/usr/bin/env bash
# Load run: GET /api/users/me with a development token or a sign-in
# session token (the production path: SHA-256 of the token, one indexed
# query joining session, user and membership), 64 keep-alive connections,
# wrk beside the server on this machine. Logs are on (to a file), as in
# production.
#
#   bench/users_me.sh [seconds] [connections] [dev|session|both]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN="$ROOT/build/release/src/app/credence"
SECONDS_RUN=${1:-10}
CONNECTIONS=${2:-64}
MODE=${3:-both}
[[ -x $BIN ]] || { echo "build first: cmake --build build/release" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

DIR=$(mktemp -d /tmp/credence-bench-XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# Load benchmarks run without the rate limits (docs/operations.md); SERVER_ARGS may set them.
NO_RATE_LIMITS="--rate-limit-key-rps 0 --rate-limit-user-rps 0 --rate-limit-address-rps 0"
"$BIN" serve --dev --listen "127.0.0.1:$PORT" --data-dir "$DIR" $NO_RATE_LIMITS ${SERVER_ARGS:-} 2>"$DIR/server.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$DIR"' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.05; done

TENANT=$(curl -s "http://127.0.0.1:$PORT/auth/dev-tenants" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
login() {
  curl -s -X POST "http://127.0.0.1:$PORT/auth/dev-login" -H 'Content-Type: application/json' \
    -d "{\"persona\":\"editor\",\"tenantId\":\"$TENANT\",\"session\":$1}" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'
}
run() {  # run LABEL TOKEN
  export TOKEN=$2
  wrk -t1 -c"$CONNECTIONS" -d2s -s "$ROOT/bench/users_me.lua" "http://127.0.0.1:$PORT/api/users/me" >/dev/null
  echo "== GET /api/users/me ($1)"
  wrk -t1 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency -s "$ROOT/bench/users_me.lua" "http://127.0.0.1:$PORT/api/users/me"
}
[[ $MODE == dev || $MODE == both ]] && run "dev token: authentication query, routing, JSON" "$(login false)"
[[ $MODE == session || $MODE == both ]] && run "session token: SHA-256, session+user+membership query, routing, JSON" "$(login true)"
echo "== GET /healthz (the floor: same server, no authentication, no storage)"
wrk -t1 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency "http://127.0.0.1:$PORT/healthz"
