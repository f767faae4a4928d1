#!/usr/bin/env bash
# Load run: POST /api/trust/evaluate with 100 resolvable sources (published,
# reviewed entries), SQLite, warm, wrk beside the server; then the floor:
# POST /dev/floor with the same body and credentials, answering the same
# number of bytes without evaluating or writing the ledger. Prints both, the
# ledger's bytes per decision, and their ratio.
#
#   bench/trust.sh [seconds] [connections]
#
# FINDINGS=1 puts scanning facts in play: every 4th entry carries an e-mail
# address (personal data: personal_data_present warns) and every 10th a
# private key (secrets_present blocks), found by the content scanner at save.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CREDENCE_BIN:-"$ROOT/build/release/src/app/credence"}
SECONDS_RUN=${1:-10}
CONNECTIONS=${2:-32}
[[ -x $BIN ]] || { echo "build first: cmake --build build/release" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

DIR=${KEEP_DIR:-$(mktemp -d /tmp/credence-bench-XXXXXX)}
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# Load benchmarks run without the rate limits (docs/operations.md); SERVER_ARGS may set them.
NO_RATE_LIMITS="--rate-limit-key-rps 0 --rate-limit-user-rps 0 --rate-limit-address-rps 0"
"$BIN" serve --dev --listen "127.0.0.1:$PORT" --data-dir "$DIR" $NO_RATE_LIMITS ${SERVER_ARGS:-} 2>"$DIR/server.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; [[ -n ${KEEP_DIR:-} ]] || rm -rf "$DIR"' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.05; done

# Seed: a tenant with 100 published, reviewed entries; the request body.
export BASE="http://127.0.0.1:$PORT" BODY_FILE="$DIR/body.json" TOKEN_FILE="$DIR/token"
python3 - <<'PY'
import base64, json, os, random, urllib.request
base = os.environ["BASE"]
findings = os.environ.get("FINDINGS") == "1"
rng = random.Random(13)
def text_of(i):
    text = f"Answer {i}"
    if findings and i % 4 == 0:
        text += f" Contact jo.{i}@initech-ops.io for details."
    if findings and i % 10 == 0:
        body = base64.b64encode(bytes(rng.getrandbits(8) for _ in range(120))).decode()
        text += "\n-----BEGIN RSA PRIVATE KEY-----\n" + body + "\n-----END RSA PRIVATE KEY-----"
    return text
def call(method, path, body=None, token=None):
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    req.add_header("Content-Type", "application/json")
    if token: req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read() or b"null")
tenant = call("GET", "/auth/dev-tenants")[0]["id"]
admin = call("POST", "/auth/dev-login", {"persona": "admin", "tenantId": tenant})["token"]
call("POST", "/api/hubs", {"key": "bench-trust", "name": "Bench", "defaultExpiryDays": 365}, admin)
ids = []
for i in range(100):
    doc = {"type": "doc", "content": [{"type": "paragraph", "content": [{"type": "text", "text": text_of(i)}]}]}
    e = call("POST", "/api/entries", {"hubKey": "bench-trust", "key": f"e{i}", "title": f"Entry {i}",
                                      "originalLanguage": "en", "content": json.dumps(doc)}, admin)
    call("POST", f"/api/entries/{e['id']}/publish", {}, admin)
    call("POST", f"/api/entries/{e['id']}/review", {"reviewType": "FullReview", "timeSpentSeconds": 30}, admin)
    ids.append("entry:" + e["id"])
body = {"sources": ids, "context": {"actorType": "ai_agent", "actorLabel": "bench", "action": "answer_employee",
                                    "channel": "internal"}}
open(os.environ["BODY_FILE"], "w").write(json.dumps(body))
open(os.environ["TOKEN_FILE"], "w").write(admin)
PY
export TOKEN=$(cat "$TOKEN_FILE")
if [[ ${FINDINGS:-} == 1 ]]; then
  echo "scanner facts: $(sqlite3 "$DIR/credence.db" "select count(*), sum(has_secrets), sum(has_personal_data) from source_sensitivity where set_by = 'scanner'") (sources, with secrets, with personal data)"
fi
BYTES=$(curl -s -X POST "$BASE/api/trust/evaluate" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  --data-binary @"$BODY_FILE" | wc -c)
echo "evaluate answer: $BYTES bytes for 100 sources"

wrk -t1 -c"$CONNECTIONS" -d2s -s "$ROOT/bench/trust.lua" "$BASE/api/trust/evaluate" >/dev/null  # warm up
DB="$DIR/credence.db"
before=$(sqlite3 "$DB" "select count(*) from trust_decisions")
echo "== POST /api/trust/evaluate, 100 sources, $CONNECTIONS connections"
# PERF_OUT=dir: also record a CPU profile of the server during this run.
if [[ -n ${PERF_OUT:-} ]]; then
  perf record -F 499 -g -p "$SERVER" -o "$PERF_OUT/evaluate.perf" -- sleep "$SECONDS_RUN" 2>/dev/null &
  PERF_PID=$!
fi
wrk -t1 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency -s "$ROOT/bench/trust.lua" "$BASE/api/trust/evaluate"
[[ -n ${PERF_PID:-} ]] && wait "$PERF_PID"
echo "== POST /dev/floor?bytes=$BYTES (same body and credentials; no evaluation, no ledger)"
wrk -t1 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency -s "$ROOT/bench/trust.lua" "$BASE/dev/floor?bytes=$BYTES"

# Ledger bytes per decision: the decisions table and its indexes, per row
# (evidence is shared: after the first call it adds nothing).
after=$(sqlite3 "$DB" "select count(*) from trust_decisions")
sqlite3 "$DB" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
python3 - "$DB" "$before" "$after" <<'PY'
import sqlite3, sys
db, before, after = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
c = sqlite3.connect(db)
def size(name):
    try:
        return c.execute("select sum(pgsize) from dbstat where name = ?", (name,)).fetchone()[0] or 0
    except sqlite3.OperationalError:
        return None
rows = c.execute("select count(*) from trust_decisions").fetchone()[0]
row_bytes = c.execute("select avg(length(header) + length(evidence) + length(prev_hash) + length(hash) + 200) from trust_decisions").fetchone()[0]
evidence = c.execute("select count(*), sum(length(body)) from trust_evidence").fetchone()
names = ["trust_decisions", "sqlite_autoindex_trust_decisions_1", "sqlite_autoindex_trust_decisions_2", "trust_decisions_time"]
sizes = [size(n) for n in names]
print(f"ledger: {rows} decisions ({after - before} in the measured runs); {evidence[0]} evidence rows ({evidence[1]} bytes) shared by all")
if all(s is not None for s in sizes):
    print(f"ledger bytes on disk per decision (table + indexes): {sum(sizes) / rows:.0f}")
print(f"ledger bytes per decision (stored values): {row_bytes:.0f}")
PY
