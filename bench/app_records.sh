#!/usr/bin/env bash
# How long an app's AI Act export takes and how large it is (docs/ai-act.md,
# docs/performance.md "AI Act exports"): a dev server on SQLite, 20
# published, reviewed entries, an app with a key, wrk running evaluate (the
# 20 entries, as the app) for SECS seconds, checkpoints every second; then
# GET /trust-admin/apps/{id}/records as JSON Lines and as CSV, RUNS times
# each: decisions exported, bytes, seconds, decisions per second.
#
#   SECS=20 RUNS=3 bench/app_records.sh
#
set -euo pipefail
[[ -n ${TRACE:-} ]] && set -x
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CREDENCE_BIN:-"$ROOT/build/release/src/app/credence"}
[[ -x $BIN ]] || { echo "build first: cmake --build build/release" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
DIR=$(mktemp -d /tmp/credence-app-records-XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$BIN" serve --dev --listen "127.0.0.1:$PORT" --data-dir "$DIR" --rate-limit-key-rps 0 --rate-limit-user-rps 0 \
  --rate-limit-address-rps 0 --jobs-interval-ms 1000 --chain-head-interval-seconds 1 2>"$DIR/server.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$DIR"' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.05; done

export BASE="http://127.0.0.1:$PORT" DIR
HUB=bench-records python3 "$ROOT/bench/lib/seed_trust.py"
export BODY_FILE="$DIR/body.json" TOKEN=$(cat "$DIR/app_token")
wrk -t1 -c16 -d"${SECS:-20}"s -s "$ROOT/bench/trust.lua" "$BASE/api/trust/evaluate" | awk '/requests in|Requests\/sec/'
sleep 3  # a checkpoint covers the last decision
ADMIN=$(cat "$DIR/admin_token") APP=$(cat "$DIR/app_id")
for format in jsonl csv; do
  for _ in $(seq "${RUNS:-3}"); do
    out=$(curl -s -o "$DIR/export.$format" -w '%{http_code} %{size_download} %{time_total}' \
      -H "Authorization: Bearer $ADMIN" "$BASE/trust-admin/apps/$APP/records?format=$format")
    read -r status bytes secs <<<"$out"
    [[ $status == 200 ]] || { echo "export answered $status: $(head -c 400 "$DIR/export.$format")" >&2; exit 1; }
    n=$(grep -c '"type":"decision"\|^decision,' "$DIR/export.$format" || true)
    python3 -c "print(f'$format: $n decisions, {$bytes/1e6:.1f} MB ({$bytes/max($n,1):.0f} bytes a decision), {$secs:.2f} s, {$n/$secs:,.0f} decisions/s')"
  done
done
