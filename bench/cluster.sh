#!/usr/bin/env bash
# Several nodes on one PostgreSQL (docs/operations.md, docs/performance.md
# "Several nodes"): POST /api/trust/evaluate with 100 resolvable sources,
# all in one run on one PostgreSQL 15 (scripts/pg-test-server: loopback,
# durability off, on the same two cores), through
#   1. one node directly,
#   2. HAProxy in front of two nodes,
# each on one tenant and on several tenants (wrk rotates tenants per
# request). Prints requests/s, p99 and failed answers per run, then checks
# that every tenant's ledger chain verifies.
#
#   bench/cluster.sh [seconds] [connections] [tenants]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CREDENCE_BIN:-"$ROOT/build/release/src/app/credence"}
SECONDS_RUN=${1:-10}
CONNECTIONS=${2:-32}
TENANTS=${3:-4}
THREADS=${NODE_THREADS:-8}
[[ -x $BIN ]] || { echo "build first: cmake --build build/release" >&2; exit 1; }
for tool in wrk haproxy; do
  command -v $tool >/dev/null || { echo "$tool is missing: apt-get install $tool" >&2; exit 1; }
done

DIR=$(mktemp -d /tmp/credence-cluster-bench-XXXXXX)
chmod 755 "$DIR"  # the PostgreSQL server runs as postgres
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  "$ROOT/scripts/pg-test-server" stop "$DIR/pg" >/dev/null 2>&1 || true
  [[ -n ${KEEP_DIR:-} ]] || rm -rf "$DIR"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

PG_URL=$("$ROOT/scripts/pg-test-server" start "$DIR/pg")
P1=$(free_port); P2=$(free_port); PH=$(free_port)
for n in 1 2; do
  port=P$n
  mkdir -p "$DIR/node$n"
  "$BIN" serve --dev --listen "127.0.0.1:${!port}" --data-dir "$DIR/node$n" --database "$PG_URL" \
    --chain-signing-key "$DIR/chain-signing-key.pem" --threads "$THREADS" \
    --rate-limit-key-rps 0 --rate-limit-user-rps 0 --rate-limit-address-rps 0 2>"$DIR/node$n.log" &
  PIDS+=($!)
done
for port in $P1 $P2; do
  for _ in $(seq 200); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.05; done
done
cat >"$DIR/haproxy.cfg" <<EOF
global
  maxconn 4096
defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
frontend credence
  bind 127.0.0.1:$PH
  default_backend nodes
backend nodes
  balance roundrobin
  option httpchk GET /readyz
  http-reuse always
  server node1 127.0.0.1:$P1 check inter 1s
  server node2 127.0.0.1:$P2 check inter 1s
EOF
haproxy -f "$DIR/haproxy.cfg" -db >"$DIR/haproxy.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PH/readyz" >/dev/null && break; sleep 0.05; done

# Seed: TENANTS tenants (the demo tenant and new ones), each with 100
# published, reviewed entries; one body and admin token per tenant.
export BASE="http://127.0.0.1:$P1" SEED_DIR="$DIR" TENANTS
python3 - <<'PY'
import json, os, urllib.request
from concurrent.futures import ThreadPoolExecutor
base, out, count = os.environ["BASE"], os.environ["SEED_DIR"], int(os.environ["TENANTS"])
def call(method, path, body=None, token=None):
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    req.add_header("Content-Type", "application/json")
    if token: req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read() or b"null")
tenants = [call("GET", "/auth/dev-tenants")[0]["id"]]
for i in range(1, count):
    tenants.append(call("POST", "/api/tenant/create", {"name": f"Bench {i}", "slug": f"bench-{i}",
                                                       "enabledLanguages": ["en"]})["id"])
def seed(index_tenant):
    index, tenant = index_tenant
    admin = call("POST", "/auth/dev-login", {"persona": "admin", "tenantId": tenant})["token"]
    call("POST", "/api/hubs", {"key": "bench", "name": "Bench", "defaultExpiryDays": 365}, admin)
    ids = []
    for i in range(100):
        doc = {"type": "doc", "content": [{"type": "paragraph", "content": [{"type": "text", "text": f"Answer {i}"}]}]}
        e = call("POST", "/api/entries", {"hubKey": "bench", "key": f"e{i}", "title": f"Entry {i}",
                                          "originalLanguage": "en", "content": json.dumps(doc)}, admin)
        call("POST", f"/api/entries/{e['id']}/publish", {}, admin)
        call("POST", f"/api/entries/{e['id']}/review", {"reviewType": "FullReview", "timeSpentSeconds": 30}, admin)
        ids.append("entry:" + e["id"])
    body = {"sources": ids, "context": {"actorType": "ai_agent", "actorLabel": "bench", "channel": "internal"}}
    open(f"{out}/body{index}.json", "w").write(json.dumps(body))
    open(f"{out}/token{index}", "w").write(admin)
with ThreadPoolExecutor(4) as pool:
    list(pool.map(seed, enumerate(tenants)))
PY

cat >"$DIR/rotate.lua" <<'EOF'
-- POST the evaluate body of tenant i (i = 0 .. TENANTS-1) in turn.
local dir, count = os.getenv("SEED_DIR"), tonumber(os.getenv("WRK_TENANTS"))
local requests, next_index = {}, 0
for i = 0, count - 1 do
  local f = assert(io.open(dir .. "/body" .. i .. ".json", "r"))
  local body = f:read("*a")
  f:close()
  local t = assert(io.open(dir .. "/token" .. i, "r"))
  local token = t:read("*l")
  t:close()
  requests[i] = wrk.format("POST", nil, {["Host"] = "127.0.0.1", ["Content-Type"] = "application/json",
                                          ["Authorization"] = "Bearer " .. token}, body)
end
function request()
  local r = requests[next_index]
  next_index = (next_index + 1) % count
  return r
end
EOF

# CPU time (clock ticks) used so far by a group of processes: the nodes,
# PostgreSQL (every process of the postgres user), HAProxy.
ticks() {
  local total=0 pid
  for pid in "$@"; do
    [[ -r /proc/$pid/stat ]] || continue
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
  done
  echo "$total"
}
NODE_PIDS=("${PIDS[0]}" "${PIDS[1]}")
HAPROXY_PID=${PIDS[2]}
cpu_snapshot() {
  echo "$(ticks "${NODE_PIDS[@]}") $(ticks $(pgrep -u postgres)) $(ticks "$HAPROXY_PID")"
}
HZ=$(getconf CLK_TCK)

run() {  # label url tenants
  local label=$1 url=$2
  export WRK_TENANTS=$3
  wrk -t2 -c"$CONNECTIONS" -d2s -s "$DIR/rotate.lua" "$url/api/trust/evaluate" >/dev/null  # warm up
  local out
  # The cores' idle share during the run: near 0 means the machine, not
  # Credence's design, is the bound (PostgreSQL, the nodes, HAProxy and wrk
  # share the two cores).
  vmstat 1 "$((SECONDS_RUN + 1))" >"$DIR/vmstat" &
  local vmstat_pid=$!
  local before after
  before=$(cpu_snapshot)
  out=$(wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency -s "$DIR/rotate.lua" "$url/api/trust/evaluate")
  after=$(cpu_snapshot)
  wait "$vmstat_pid" || true
  local idle
  idle=$(awk 'NR > 3 {sum += $15; n++} END {if (n) printf "%d%%", sum / n}' "$DIR/vmstat")
  local rps p99 bad
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  bad=$(awk '/Non-2xx/ {print $5}' <<<"$out")
  # CPU milliseconds per request, by part: what a machine of each part
  # would have to supply (docs/performance.md, "the model").
  local requests cpu
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  cpu=$(python3 -c '
import sys
b = [int(x) for x in sys.argv[1].split()]; a = [int(x) for x in sys.argv[2].split()]
hz, n = int(sys.argv[3]), max(int(sys.argv[4]), 1)
print(" ".join(f"{(a[i] - b[i]) * 1000 / hz / n:.3f}" for i in range(3)))' "$before" "$after" "$HZ" "$requests")
  read -r cpu_nodes cpu_pg cpu_haproxy <<<"$cpu"
  printf '%-34s %8s req/s  p99 %8s  failed %s  idle %4s  cpu ms/request: nodes %s, PostgreSQL %s, HAProxy %s\n' \
    "$label" "$rps" "$p99" "${bad:-0}" "$idle" "$cpu_nodes" "$cpu_pg" "$cpu_haproxy"
  echo "$label|$rps|$p99|${bad:-0}" >>"$DIR/results"
}
echo "== POST /api/trust/evaluate, 100 sources, $CONNECTIONS connections, ${SECONDS_RUN}s each, PostgreSQL 15"
run "one node, one tenant" "http://127.0.0.1:$P1" 1
run "two nodes (HAProxy), one tenant" "http://127.0.0.1:$PH" 1
run "one node, $TENANTS tenants" "http://127.0.0.1:$P1" "$TENANTS"
run "two nodes (HAProxy), $TENANTS tenants" "http://127.0.0.1:$PH" "$TENANTS"
python3 - "$DIR/results" <<'PY'
import sys
rows = {}
for line in open(sys.argv[1]):
    label, rps, p99, bad = line.strip().split("|")
    rows[label] = float(rps)
labels = list(rows)
print(f"two nodes / one node, one tenant:   {rows[labels[1]] / rows[labels[0]]:.2f}x")
print(f"two nodes / one node, many tenants: {rows[labels[3]] / rows[labels[2]]:.2f}x")
PY
deadlocks=$(psql "$PG_URL" -Atc "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
conflicts=$(cat "$DIR"/node*.log | grep -c '"status":409' || true)
echo "deadlocks PostgreSQL detected: $deadlocks, 409 answers: $conflicts"
for i in $(seq 0 $((TENANTS - 1))); do
  curl -s "http://127.0.0.1:$P2/trust-admin/ledger/verify" -H "Authorization: Bearer $(cat "$DIR/token$i")" |
    python3 -c 'import json,sys; v=json.load(sys.stdin); print("tenant", '"$i"', "ledger", "verifies" if v["ok"] else "BROKEN", v["checked"], "records")'
done
