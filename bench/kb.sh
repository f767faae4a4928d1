#!/usr/bin/env bash
# Knowledge-base load runs (issue 3), wrk beside the server, SQLite:
#   1. PUT of a 200-block entry with 5 translations, one block changed per request (8 connections)
#   2. GET of that entry, and of a typical 20-block entry, with ?language=es (64 connections)
#   3. search over ENTRIES seeded entries (8 connections, then 32 to saturate)
#
#   bench/kb.sh [seconds] [entries]      (defaults: 10 s, 100000 entries)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN="$ROOT/build/release/src/app/credence"
SEED="$ROOT/build/release/bench/kb_seed"
SECONDS_RUN=${1:-10}
ENTRIES=${2:-100000}
[[ -x $BIN && -x $SEED ]] || { echo "build first: cmake --build build/release" >&2; exit 1; }

DIR=$(mktemp -d /tmp/credence-kb-bench-XXXXXX)
echo "== seeding $ENTRIES entries (5 blocks each) into $DIR"
/usr/bin/time -f "seeded in %e s" "$SEED" "$DIR" "$ENTRIES" 5 >/dev/null
export VOCABULARY="$DIR/vocabulary.txt"

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# Load benchmarks run without the rate limits (docs/operations.md); SERVER_ARGS may set them.
NO_RATE_LIMITS="--rate-limit-key-rps 0 --rate-limit-user-rps 0 --rate-limit-address-rps 0"
"$BIN" serve --dev --listen "127.0.0.1:$PORT" --data-dir "$DIR" $NO_RATE_LIMITS ${SERVER_ARGS:-} 2>"$DIR/server.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; [[ -n ${KEEP:-} ]] || rm -rf "$DIR"' EXIT
for _ in $(seq 200); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.05; done

# An entry of 200 blocks with 5 complete translations; the PUT body template.
eval "$(PORT=$PORT DIR=$DIR python3 - <<'PY'
import http.client, json, os
port = int(os.environ["PORT"]); d = os.environ["DIR"]
c = http.client.HTTPConnection("127.0.0.1", port)
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
texts = ["Block %d of the performance entry, with a sentence of ordinary length in it." % i for i in range(200)]
e = call("POST", "/api/entries", {"hubKey": "perf", "key": "big", "originalLanguage": "en", "title": "Big", "content": doc(texts)}, token)
ids = [n["attrs"]["blockId"] for n in json.loads(e["content"])["content"]]
for lang in ["es", "de", "fr", "it", "pt"]:
    call("POST", "/api/entries/%s/translations/%s" % (e["id"], lang),
         {"title": "Big " + lang, "content": doc(["[%s] %s" % (lang, t) for t in texts], ids)}, token)
small = texts[:20]
t = call("POST", "/api/entries", {"hubKey": "perf", "key": "typical", "originalLanguage": "en", "title": "Typical", "content": doc(small)}, token)
tids = [n["attrs"]["blockId"] for n in json.loads(t["content"])["content"]]
call("POST", "/api/entries/%s/translations/es" % t["id"], {"title": "Typical es", "content": doc(["[es] " + x for x in small], tids)}, token)
texts[0] = "Block 0, revision __N__"
with open(d + "/put_body.json", "w") as f:
    f.write(json.dumps({"title": "Big", "content": doc(texts, ids)}))
print("export TOKEN=%s ENTRY_PATH=/api/entries/%s TYPICAL_PATH=/api/entries/%s BODY_FILE=%s/put_body.json" % (token, e["id"], t["id"], d))
PY
)"

run() {  # name, connections, script, url
  echo "== $1 ($2 connections, ${SECONDS_RUN}s)"
  wrk -t1 -c"$2" -d2s -s "$3" "$4" >/dev/null
  # PERF_OUT=dir: also record a CPU profile of the server per run.
  if [[ -n ${PERF_OUT:-} ]]; then
    perf record -F 499 -g -p "$SERVER" -o "$PERF_OUT/$5.perf" -- sleep "$SECONDS_RUN" 2>/dev/null &
    PERF_PID=$!
  fi
  wrk -t1 -c"$2" -d"${SECONDS_RUN}s" --latency -s "$3" "$4" | grep -E "Requests/sec|^ +(50|90|99)%|Non-2xx|Socket errors"
  [[ -n ${PERF_PID:-} ]] && wait "$PERF_PID"
  PERF_PID=
}
BASE="http://127.0.0.1:$PORT"
run "PUT 200-block entry, 5 translations, 1 block changed" 8 "$ROOT/bench/kb_put.lua" "$BASE$ENTRY_PATH" put
run "GET 200-block entry ?language=es" 64 "$ROOT/bench/kb_get.lua" "$BASE$ENTRY_PATH?language=es" get
run "GET 20-block entry ?language=es" 64 "$ROOT/bench/kb_get.lua" "$BASE$TYPICAL_PATH?language=es" get_typical
run "search over $ENTRIES entries" 8 "$ROOT/bench/kb_search.lua" "$BASE/api/entries/search?q=x" search
run "search over $ENTRIES entries, saturated" 32 "$ROOT/bench/kb_search.lua" "$BASE/api/entries/search?q=x" search32
echo "== on disk: $(du -sh "$DIR/credence.db" | cut -f1) database"
