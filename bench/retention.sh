#!/usr/bin/env bash
# What archiving does to the store's size (docs/retention.md): a server on
# the test clock takes DECISIONS evaluate calls (default 3,000, 20 sources
# each, 4 clients) in each of MONTHS months (default 20), and after each
# month the archiver runs (POST /dev/retention/run). Prints, per month, the
# ledger rows left, the SQLite file's size and its pages in use (page_count
# - freelist_count), and the archive directory's size; then the same without
# --archive-dir for comparison. With the tenant's retention (default 6
# months here, RETENTION=13 for the default), the file stops growing once
# archiving keeps pace: deleted rows' pages are reused.
#
#   bench/retention.sh [MONTHS] [DECISIONS]
#
# Build first: cmake --build build/release -- credence
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CREDENCE_BIN:-"$ROOT/build/release/src/app/credence"}
MONTHS=${1:-20}
DECISIONS=${2:-3000}
RETENTION=${RETENTION:-6}
command -v sqlite3 >/dev/null || { echo "needs the sqlite3 shell (apt-get install sqlite3)" >&2; exit 1; }
WORK=$(mktemp -d /tmp/retention-bench-XXXXXX)
SERVER=
cleanup() {
  if [[ -n $SERVER ]]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
  [[ -n ${KEEP:-} ]] || rm -rf "$WORK"
}
trap cleanup EXIT

run() {  # $1: label, $2: "archive" or ""
  local data="$WORK/$1" port
  mkdir -p "$data/archives"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  local args=(serve --dev --test-clock --listen "127.0.0.1:$port" --data-dir "$data" --rate-limit-user-rps 0)
  [[ $2 == archive ]] && args+=(--archive-dir "$data/archives")
  "$BIN" "${args[@]}" 2>"$data/server.log" &
  SERVER=$!
  for _ in $(seq 200); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.05; done
  BASE="http://127.0.0.1:$port" DATA="$data" LABEL=$1 MONTHS=$MONTHS DECISIONS=$DECISIONS RETENTION=$RETENTION \
    ARCHIVE=$2 python3 - <<'PY'
import http.client, json, os, subprocess, threading, urllib.request

base, data = os.environ["BASE"], os.environ["DATA"]
host, port = base.split("//")[1].split(":")
months, per_month = int(os.environ["MONTHS"]), int(os.environ["DECISIONS"])

def call(method, path, body=None, token=None):
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    req.add_header("Content-Type", "application/json")
    if token: req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())

call("PUT", "/dev/clock", {"now": "2025-01-01T12:00:00Z"})
tenant = next(t["id"] for t in call("GET", "/auth/dev-tenants") if t.get("slug") == "acme")
token = call("POST", "/auth/dev-login", {"persona": "admin", "tenantId": tenant})["token"]
call("PUT", "/trust-admin/retention", {"decisionsMonths": int(os.environ["RETENTION"]),
                                       "usageMonths": int(os.environ["RETENTION"]),
                                       "auditMonths": int(os.environ["RETENTION"])}, token)
headers = {"Content-Type": "application/json", "Authorization": "Bearer " + token}

def month_of(i):
    return f"{2025 + (i // 12)}-{(i % 12) + 1:02d}"

def client(n, day):
    conn = http.client.HTTPConnection(host, int(port))
    for k in range(n):
        body = json.dumps({"sources": [f"wiki:page-{(k + j) % 200}" for j in range(20)],
                           "context": {"actorType": "ai_agent", "actorLabel": "bench", "channel": "internal"}})
        conn.request("POST", "/api/trust/evaluate", body, headers)
        r = conn.getresponse(); r.read()
        if r.status != 200: raise SystemExit(f"evaluate answered {r.status}")

def sqlite(sql):
    return subprocess.run(["sqlite3", f"{data}/credence.db", sql], capture_output=True, text=True, check=True).stdout.strip()

def du(path):
    return int(subprocess.run(["du", "-sb", path], capture_output=True, text=True).stdout.split()[0])

print(f"{os.environ['LABEL']}: month, ledger rows, SQLite file MB (+WAL), pages in use MB, archives MB")
for i in range(months):
    for day in ("05", "20"):  # two clock stops a month
        call("PUT", "/dev/clock", {"now": f"{month_of(i)}-{day}T12:00:00Z"})
        threads = [threading.Thread(target=client, args=(per_month // 8, day)) for _ in range(4)]
        for t in threads: t.start()
        for t in threads: t.join()
    if os.environ["ARCHIVE"]:
        call("POST", "/dev/retention/run", {})
    sqlite("PRAGMA wal_checkpoint(TRUNCATE)")
    rows = sqlite("SELECT COUNT(*) FROM trust_decisions")
    pages, free, size = (int(sqlite(f"PRAGMA {p}")) for p in ("page_count", "freelist_count", "page_size"))
    file_mb = os.path.getsize(f"{data}/credence.db") / 1e6
    wal = f"{data}/credence.db-wal"
    wal_mb = os.path.getsize(wal) / 1e6 if os.path.exists(wal) else 0
    print(f"  {month_of(i)}  {rows:>7}  {file_mb:8.1f} (+{wal_mb:.1f})  {(pages - free) * size / 1e6:8.1f}  "
          f"{du(data + '/archives') / 1e6:7.1f}", flush=True)
PY
  kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=
}

run archived archive
run kept ""
