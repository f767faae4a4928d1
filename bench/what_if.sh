#!/usr/bin/env bash
# How fast a policy what-if replays the ledger (docs/what-if.md,
# docs/performance.md "Policy what-if"): a dev server on SQLite, ENTRIES
# published, reviewed entries, an app with a key, wrk running evaluate (every
# entry, as the app) for SECS seconds; then POST /trust-admin/what-if over
# the whole ledger, RUNS times for each of three changes: one that moves
# nothing (today's tenant policy again), a hub policy that blocks every
# source, an app policy that blocks them by sensitivity. Prints decisions
# replayed, seconds, decisions per second.
#
#   SECS=820 ENTRIES=10 RUNS=2 bench/what_if.sh     # ~1,000,000 decisions on two shared cores
#
set -euo pipefail
[[ -n ${TRACE:-} ]] && set -x
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CREDENCE_BIN:-"$ROOT/build/unity/src/app/credence"}
[[ -x $BIN ]] || { echo "build first: ninja -C build/unity credence (or set CREDENCE_BIN)" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
DIR=$(mktemp -d /tmp/credence-what-if-XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$BIN" serve --dev --listen "127.0.0.1:$PORT" --data-dir "$DIR" --rate-limit-key-rps 0 --rate-limit-user-rps 0 \
  --rate-limit-address-rps 0 2>"$DIR/server.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$DIR"' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.05; done

export BASE="http://127.0.0.1:$PORT" DIR
ENTRIES=${ENTRIES:-10} HUB=bench python3 "$ROOT/bench/lib/seed_trust.py"
export BODY_FILE="$DIR/body.json" TOKEN=$(cat "$DIR/app_token")
wrk -t1 -c16 -d"${SECS:-300}"s --timeout 10s -s "$ROOT/bench/trust.lua" "$BASE/api/trust/evaluate" |
  awk '/requests in|Requests\/sec/'
ADMIN=$(cat "$DIR/admin_token") APP=$(cat "$DIR/app_id")
changes=(
  "nothing|[{\"target\":\"tenant-policy\",\"policy\":{}}]"
  "hub blocks|[{\"target\":\"hub-policy\",\"hubKey\":\"bench\",\"policy\":{\"aiRetrievable\":false}}]"
  "app policy|[{\"target\":\"app-policy\",\"appId\":\"$APP\",\"defaultPolicy\":{\"maxSensitivityForAi\":\"Public\"}}]"
)
for change in "${changes[@]}"; do
  name=${change%%|*} body="{\"changes\":${change#*|}}"
  for _ in $(seq "${RUNS:-3}"); do
    out=$(curl -s -o "$DIR/what_if.json" -w '%{http_code} %{time_total}' -X POST -H "Authorization: Bearer $ADMIN" \
      -H 'Content-Type: application/json' --data "$body" "$BASE/trust-admin/what-if")
    read -r status secs <<<"$out"
    [[ $status == 200 ]] || { echo "what-if answered $status: $(head -c 400 "$DIR/what_if.json")" >&2; exit 1; }
    python3 - "$name" "$secs" "$DIR/what_if.json" <<'PY'
import json, sys
name, secs, r = sys.argv[1], float(sys.argv[2]), json.load(open(sys.argv[3]))
n = r["replayed"]
print(f"{name}: {n:,} decisions replayed ({r['changed']:,} moved, {r['drifted']:,} drifted) in {secs:.2f} s "
      f"(server {r['durationMs'] / 1000:.2f} s), {n / secs:,.0f} decisions/s")
PY
  done
done
