#!/usr/bin/env bash
# Git connector sync cost: a repository of N Markdown files (default
# 10,000; ~1 KB each, front matter on every tenth), the first sync (a full
# listing), then C changed files (default 100) committed and synced again
# (the diff from the synced commit), then a sync with nothing new.
# docs/performance.md, "Git connector" and "Sync now, from the request".
#
# Two ways to run a sync:
# - JOBS_INTERVAL_MS unset or 0: development mode with the background jobs
#   off; each sync is queued, then run by POST /dev/connectors/run, which
#   answers when the pass is done; the time is the wall time of that call.
# - JOBS_INTERVAL_MS=n: the background jobs on, every n ms (production's
#   default is 5000), as a user meets them: the time runs from the sync-now
#   request to the moment a poll (every 10 ms) sees the run finished, and is
#   split by the run's own timestamps into the wait (queued -> started) and
#   the work (started -> finished).
#
#   bench/git_connector.sh [files] [changed] [database URL]
#   CREDENCE_BINARY=build/other/src/app/credence bench/git_connector.sh  # another build
#   JOBS_INTERVAL_MS=5000 bench/git_connector.sh 10000 100
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CREDENCE_BINARY:-$ROOT/build/release/src/app/credence}
FILES=${1:-10000}
CHANGED=${2:-100}
DB=${3:-}
[[ -x $BIN ]] || { echo "build first: cmake --build build/release --target credence" >&2; exit 1; }

DIR=$(mktemp -d /tmp/credence-gitbench-XXXXXX)
REPO="$DIR/repo"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
DB_ARGS=()
[[ -n $DB ]] && DB_ARGS=(--database "$DB")
JOBS_INTERVAL_MS=${JOBS_INTERVAL_MS:-0}
"$BIN" serve --dev --jobs-interval-ms "$JOBS_INTERVAL_MS" --listen "127.0.0.1:$PORT" --data-dir "$DIR/data" "${DB_ARGS[@]}" \
  ${SERVER_ARGS:-} 2>"$DIR/server.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; [[ -n ${KEEP:-} ]] && cp "$DIR/server.log" /tmp/gitbench-server.log; rm -rf "$DIR"' EXIT

python3 - "$REPO" "$FILES" <<'PY'
import os, sys
repo, n = sys.argv[1], int(sys.argv[2])
para = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 16
for i in range(n):
    d = os.path.join(repo, "docs", "section-%03d" % (i // 100))
    os.makedirs(d, exist_ok=True)
    front = "---\nowner: editor@acme.example\nreviewed_at: 2026-01-01\n---\n" if i % 10 == 0 else ""
    with open(os.path.join(d, "page-%05d.md" % i), "w") as f:
        f.write(front + "# Page %d\n\n%s\n" % (i, para))
PY
git -C "$REPO" init -q -b main
git -C "$REPO" -c user.email=b@x -c user.name=b add -A
git -C "$REPO" -c user.email=b@x -c user.name=b commit -q -m "$FILES pages"

for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.05; done
BASE="http://127.0.0.1:$PORT"
TENANT=$(curl -s "$BASE/auth/dev-tenants" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
ADMIN=$(curl -s -X POST "$BASE/auth/dev-login" -H 'Content-Type: application/json' \
  -d "{\"persona\":\"admin\",\"tenantId\":\"$TENANT\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
ID=$(curl -s -X POST "$BASE/trust-admin/connectors" -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' \
  -d "{\"key\":\"bench\",\"kind\":\"git\",\"settings\":{\"url\":\"$REPO\"}}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')

sync() {  # sync LABEL
  if ((JOBS_INTERVAL_MS > 0)); then sync_from_request "$1"; return; fi
  local run start end
  run=$(curl -s -X POST "$BASE/trust-admin/connectors/$ID/sync" -H "Authorization: Bearer $ADMIN" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  start=$(date +%s.%N)
  curl -s -X POST "$BASE/dev/connectors/run" >/dev/null
  end=$(date +%s.%N)
  curl -s "$BASE/trust-admin/connectors/$ID/runs/$run" -H "Authorization: Bearer $ADMIN" | python3 -c "
import json,sys
r=json.load(sys.stdin)
print('%-38s %8.3f s  status=%s seen=%d added=%d changed=%d removed=%d unchanged=%d failed=%d' % (
  '$1', $end-$start, r['status'], r['documentsSeen'], r['documentsAdded'], r['documentsChanged'],
  r['documentsRemoved'], r['documentsUnchanged'], r['documentsFailed']))"
}

sync_from_request() {  # sync_from_request LABEL: the background jobs run it
  python3 - "$PORT" "$ID" "$ADMIN" "$1" <<'PY'
import http.client, json, sys, time
from datetime import datetime
port, cid, token, label = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
auth = {"Authorization": "Bearer " + token}
conn = http.client.HTTPConnection("127.0.0.1", int(port))
def call(method, path):
    conn.request(method, path, headers=auth)
    r = conn.getresponse()
    return r.status, json.loads(r.read() or b"null")
start = time.monotonic()
status, run = call("POST", "/trust-admin/connectors/%s/sync" % cid)
assert status == 202, (status, run)
while run["status"] in ("queued", "running"):
    time.sleep(0.01)
    _, run = call("GET", "/trust-admin/connectors/%s/runs/%s" % (cid, run["id"]))
total = time.monotonic() - start
ts = lambda k: datetime.fromisoformat(run[k].replace("Z", "+00:00")).timestamp()
print("%-38s %8.3f s  (wait %.3f s, work %.3f s)  status=%s seen=%d added=%d changed=%d removed=%d unchanged=%d failed=%d" % (
    label, total, ts("startedAt") - ts("queuedAt"), ts("finishedAt") - ts("startedAt"), run["status"],
    run["documentsSeen"], run["documentsAdded"], run["documentsChanged"], run["documentsRemoved"],
    run["documentsUnchanged"], run["documentsFailed"]))
PY
}

MODE="background jobs off, POST /dev/connectors/run"
((JOBS_INTERVAL_MS > 0)) && MODE="background jobs every $JOBS_INTERVAL_MS ms, from the sync-now request"
echo "== git connector: $FILES files, $CHANGED changed (database: ${DB:-sqlite}; $MODE)"
sync "first sync (full listing)"
python3 - "$REPO" "$FILES" "$CHANGED" <<'PY'
import os, sys
repo, n, c = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
step = max(1, n // c)
for k in range(c):
    i = k * step
    p = os.path.join(repo, "docs", "section-%03d" % (i // 100), "page-%05d.md" % i)
    with open(p, "a") as f:
        f.write("\nChanged in the second commit.\n")
PY
git -C "$REPO" -c user.email=b@x -c user.name=b commit -qam "$CHANGED changed"
sync "re-sync after $CHANGED changed files"
sync "re-sync with nothing new"
