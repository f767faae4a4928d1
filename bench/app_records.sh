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
python3 - <<'PY'
import datetime, json, os, urllib.request
base, d = os.environ["BASE"], os.environ["DIR"]
def call(method, path, body=None, token=None):
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    req.add_header("Content-Type", "application/json")
    if token: req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read() or b"null")
tenant = call("GET", "/auth/dev-tenants")[0]["id"]
admin = call("POST", "/auth/dev-login", {"persona": "admin", "tenantId": tenant})["token"]
call("POST", "/api/hubs", {"key": "bench-records", "name": "Bench", "defaultExpiryDays": 365}, admin)
ids = []
for i in range(20):
    doc = {"type": "doc", "content": [{"type": "paragraph", "content": [{"type": "text", "text": f"Answer {i}"}]}]}
    e = call("POST", "/api/entries", {"hubKey": "bench-records", "key": f"e{i}", "title": f"Entry {i}",
                                      "originalLanguage": "en", "content": json.dumps(doc)}, admin)
    call("POST", f"/api/entries/{e['id']}/publish", {}, admin)
    call("POST", f"/api/entries/{e['id']}/review", {"reviewType": "FullReview", "timeSpentSeconds": 30}, admin)
    ids.append("entry:" + e["id"])
app = call("POST", "/trust-admin/apps", {"name": "Bench bot", "channel": "internal", "risk": "high"}, admin)
expires = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ")
key = call("POST", f"/trust-admin/apps/{app['id']}/keys", {"name": "bench", "expiresAt": expires}, admin)
open(f"{d}/body.json", "w").write(json.dumps({"sources": ids, "context": {"channel": "internal"}}))
open(f"{d}/app_token", "w").write(key["clientSecret"])
open(f"{d}/admin_token", "w").write(admin)
open(f"{d}/app_id", "w").write(app["id"])
PY
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
