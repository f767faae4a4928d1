#!/usr/bin/env bash
# The cost of recording reads (issue 16, docs/analytics.md): GET of a typical
# 20-block entry ?language=es (as kb.sh's GET run, 64 connections, wrk beside
# the server, SQLite), with --record-reads=true and =false, alternating
# ROUNDS times (a fresh server and data dir per run), so both are measured in
# one run on the same noisy machine. Besides requests/s it reports the
# server's CPU time per request (utime + stime from /proc during the timed
# run), steadier than wall-clock throughput when the machine is shared.
#
#   bench/analytics_reads.sh [seconds] [rounds]      (defaults: 10 s, 3 rounds)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN="$ROOT/build/release/src/app/credence"
SECONDS_RUN=${1:-10}
ROUNDS=${2:-3}
[[ -x $BIN ]] || { echo "build first: ninja -C build/release credence" >&2; exit 1; }
TICK=$(getconf CLK_TCK)

one() {  # record_reads -> prints "reqs_per_s p99 cpu_us_per_req reads_recorded"
  local record=$1 dir port server
  dir=$(mktemp -d /tmp/credence-analytics-bench-XXXXXX)
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  "$BIN" serve --dev --listen "127.0.0.1:$port" --data-dir "$dir" --record-reads="$record" \
    --rate-limit-key-rps 0 --rate-limit-user-rps 0 --rate-limit-address-rps 0 2>"$dir/server.log" &
  server=$!
  for _ in $(seq 200); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.05; done
  eval "$(PORT=$port python3 - <<'PY'
import http.client, json, os
c = http.client.HTTPConnection("127.0.0.1", int(os.environ["PORT"]))
def call(method, path, body=None, token=None):
    h = {"Content-Type": "application/json"}
    if token: h["Authorization"] = "Bearer " + token
    c.request(method, path, json.dumps(body) if body is not None else None, h)
    r = c.getresponse(); data = r.read()
    assert r.status < 300, (method, path, r.status, data)
    return json.loads(data) if data else None
tenant = [t for t in call("GET", "/auth/dev-tenants") if t["slug"] == "acme"][0]["id"]
token = call("POST", "/auth/dev-login", {"persona": "admin", "tenantId": tenant})["token"]
call("POST", "/api/hubs", {"key": "perf", "name": "Perf", "defaultExpiryDays": 90}, token)
def doc(texts, ids=None):
    nodes = []
    for i, t in enumerate(texts):
        n = {"type": "paragraph", "content": [{"type": "text", "text": t}]}
        if ids: n["attrs"] = {"blockId": ids[i]}
        nodes.append(n)
    return json.dumps({"type": "doc", "content": nodes})
texts = ["Block %d of the performance entry, with a sentence of ordinary length in it." % i for i in range(20)]
t = call("POST", "/api/entries", {"hubKey": "perf", "key": "typical", "originalLanguage": "en", "title": "Typical", "content": doc(texts)}, token)
ids = [n["attrs"]["blockId"] for n in json.loads(t["content"])["content"]]
call("POST", "/api/entries/%s/translations/es" % t["id"], {"title": "Typical es", "content": doc(["[es] " + x for x in texts], ids)}, token)
print("export TOKEN=%s ENTRY=%s" % (token, t["id"]))
PY
)"
  local url="http://127.0.0.1:$port/api/entries/$ENTRY?language=es"
  wrk -t1 -c64 -d2s -s "$ROOT/bench/kb_get.lua" "$url" >/dev/null
  local before after out
  before=$(awk '{print $14 + $15}' "/proc/$server/stat")
  out=$(wrk -t1 -c64 -d"${SECONDS_RUN}s" --latency -s "$ROOT/bench/kb_get.lua" "$url")
  after=$(awk '{print $14 + $15}' "/proc/$server/stat")
  sleep 1.5  # the read buffer's flush
  local summary
  summary=$(curl -sf -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$port/api/analytics/entries/$ENTRY/summary")
  kill "$server"; wait "$server" 2>/dev/null || true
  rm -rf "$dir"
  local requests rps p99
  requests=$(echo "$out" | awk '/requests in/ {print $1}')
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
  python3 -c "import json,sys; s=json.loads(sys.argv[5]); print('%s %s %.1f %d' % (sys.argv[1], sys.argv[2], (int(sys.argv[4]) * 1e6 / int(sys.argv[6])) / int(sys.argv[3]), s['totalReads']))" \
    "$rps" "$p99" "$requests" "$((after - before))" "$summary" "$TICK"
}

echo "run  record-reads  requests/s  p99  server-CPU-us/request  reads-recorded"
for round in $(seq "$ROUNDS"); do
  for record in true false; do
    echo "$round  $record  $(one "$record")"
  done
done
