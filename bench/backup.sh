#!/usr/bin/env bash
# Times `credence admin backup` of a SQLite installation with RECORDS ledger
# records (default 200,000) while the server answers evaluate calls, and
# `credence admin restore` of that backup (docs/backup.md):
#
#   bench/backup.sh [RECORDS] [CLIENTS]
#
# Seeds DIR (default /tmp/backup-bench; kept, and reused while its record
# count matches) with bench/migrate_seed, copies it to a scratch directory,
# starts `credence serve --dev` there and keeps CLIENTS (default 4) clients
# posting /api/trust/evaluate (10 sources; each call appends a ledger
# record) back to back, and takes ROUNDS (default 3) backups, each after 3 s
# of load alone. Prints each backup's time and the evaluate latencies in
# the 3 s before it and during it (p50, p99, the longest), then restores
# the first backup into a fresh directory and prints the restore's times.
#
# For comparison, in place of the backup command (nothing is restored then):
# METHOD=vacuum-into times SQLite's `VACUUM INTO` (the sqlite3 shell);
# METHOD=sqlite3-backup the sqlite3 shell's `.backup`, the same backup API
# without a read transaction around its steps (stopped after 60 s).
#
# Build first: cmake --build build/release -- credence migrate_seed
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CREDENCE_BIN:-"$ROOT/build/release/src/app/credence"}
SEED=${SEED_BIN:-"$ROOT/build/release/bench/migrate_seed"}
RECORDS=${1:-200000}
CLIENTS=${2:-4}
METHOD=${METHOD:-credence}
DIR=${DIR:-/tmp/backup-bench}
for b in "$BIN" "$SEED"; do [[ -x $b ]] || { echo "missing $b: cmake --build build/release -- credence migrate_seed" >&2; exit 1; }; done

if [[ ! -f $DIR/credence.db || "$(cat "$DIR/seeded" 2>/dev/null)" != "$RECORDS" ]]; then
  echo "seeding $DIR: $RECORDS ledger records" >&2
  "$SEED" "$DIR" "$RECORDS" 20 >&2
  echo "$RECORDS" >"$DIR/seeded"
fi

WORK=$(mktemp -d /tmp/backup-bench-run-XXXXXX)
SERVER=
cleanup() {
  if [[ -n $SERVER ]]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
  [[ -n ${KEEP:-} ]] || rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$WORK/data"
cp "$DIR/credence.db" "$DIR/chain-signing-key.pem" "$WORK/data/"
sync  # the copy's writeback is not the backup's
echo "SQLite file: $(du -h "$WORK/data/credence.db" | cut -f1)" >&2

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# The load comes from one signed-in user: no per-user rate limit.
LIMITS=()
if [[ $("$BIN" --help 2>&1) == *--rate-limit-user-rps* ]]; then LIMITS=(--rate-limit-user-rps 0); fi
"$BIN" serve --dev --listen "127.0.0.1:$PORT" --data-dir "$WORK/data" "${LIMITS[@]}" 2>"$WORK/server.log" &
SERVER=$!
for _ in $(seq 200); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.05; done

export BASE="http://127.0.0.1:$PORT" BIN WORK CLIENTS METHOD ROUNDS=${ROUNDS:-3}
python3 - <<'PY'
import http.client, json, os, subprocess, threading, time, urllib.request

base = os.environ["BASE"]
host, port = base.split("//")[1].split(":")
work, method = os.environ["WORK"], os.environ["METHOD"]

def call(path, body, token=None):
    req = urllib.request.Request(base + path, method="POST", data=json.dumps(body).encode())
    req.add_header("Content-Type", "application/json")
    if token: req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())

tenant = next(t["id"] for t in json.loads(urllib.request.urlopen(base + "/auth/dev-tenants").read())
              if t.get("slug") == "acme")
token = call("/auth/dev-login", {"persona": "admin", "tenantId": tenant})["token"]
body = json.dumps({"sources": [f"wiki:page-{i}" for i in range(10)],
                   "context": {"actorType": "ai_agent", "actorLabel": "bench", "channel": "internal"}})
headers = {"Content-Type": "application/json", "Authorization": "Bearer " + token}

samples = []  # (sent at, seconds)
stop = threading.Event()
errors = {}
def client():
    conn = http.client.HTTPConnection(host, int(port))
    mine = []
    while not stop.is_set():
        t0 = time.monotonic()
        conn.request("POST", "/api/trust/evaluate", body, headers)
        r = conn.getresponse()
        r.read()
        if r.status != 200: errors[r.status] = errors.get(r.status, 0) + 1
        mine.append((t0, time.monotonic() - t0))
    samples.extend(mine)

threads = [threading.Thread(target=client) for _ in range(int(os.environ["CLIENTS"]))]
for t in threads: t.start()
time.sleep(2)  # warm up
rounds = []
for r in range(int(os.environ["ROUNDS"])):
    base_from = time.monotonic()
    time.sleep(3)
    start = time.monotonic()
    if method == "vacuum-into":
        subprocess.run(["sqlite3", f"{work}/data/credence.db", f"VACUUM INTO '{work}/vacuumed-{r}.db'"], check=True)
    elif method == "sqlite3-backup":
        try:
            subprocess.run(["sqlite3", f"{work}/data/credence.db", f".backup '{work}/shell-{r}.db'"], check=True,
                           timeout=int(os.environ.get("SHELL_TIMEOUT", "60")))
        except subprocess.TimeoutExpired:
            print(f"the sqlite3 shell's .backup #{r + 1} had not finished after 60 s: stopped")
    else:
        with open(f"{work}/backup-{r}.json", "w") as out, open(f"{work}/backup-{r}.err", "w") as err:
            subprocess.run([os.environ["BIN"], "admin", "backup", "--out", f"{work}/backup-{r}",
                            "--data-dir", f"{work}/data"], stdout=out, stderr=err, check=True)
    end = time.monotonic()
    rounds.append((base_from, start, end))
    time.sleep(1)
stop.set()
for t in threads: t.join()

def stats(lat):
    lat = sorted(lat)
    pick = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000
    return f"{len(lat)} requests, p50 {pick(0.5):.1f} ms, p99 {pick(0.99):.1f} ms, longest {lat[-1] * 1000:.1f} ms"
name = {"vacuum-into": "VACUUM INTO", "sqlite3-backup": "sqlite3 .backup"}.get(method, "credence admin backup")
print(f"evaluate load: {os.environ['CLIENTS']} clients back to back, 10 sources a call")
for r, (base_from, start, end) in enumerate(rounds):
    size = "" if method != "credence" else f", {json.load(open(f'{work}/backup-{r}.json'))['bytes']:,} bytes"
    print(f"{name} #{r + 1}: {end - start:.2f} s{size}")
    print(f"  evaluate in the {start - base_from:.0f} s before: " +
          stats([s for t0, s in samples if base_from <= t0 and t0 + s < start]))
    # Every request in flight at some moment of the backup.
    during = [(s, t0) for t0, s in samples if t0 < end and t0 + s > start]
    longest, at = max(during)
    print(f"  evaluate during the backup:  " + stats([s for s, _ in during]) +
          f" (sent {at - start:+.2f} s after the start)")
print("answers other than 200: " + (", ".join(f"{n} x {code}" for code, n in sorted(errors.items())) or "none"))
PY

if [[ $METHOD == credence ]]; then
  kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=
  /usr/bin/time -f "%e s elapsed, %M KiB peak memory" -o "$WORK/restore.time" \
    "$BIN" admin restore --from "$WORK/backup-0" --data-dir "$WORK/restored" \
    --chain-signing-key "$WORK/data/chain-signing-key.pem" >"$WORK/restore.json" 2>"$WORK/restore.err" \
    || { cat "$WORK/restore.err" >&2; exit 1; }
  python3 - "$WORK/restore.json" "$WORK/restore.time" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(f'credence admin restore: {s["seconds"]} s (copy {s["restoreSeconds"]} s, checks {s["verifySeconds"]} s; '
      f'{open(sys.argv[2]).read().strip()}); {s["rows"]:,} rows; chains verified: ' +
      ", ".join(f'{c["chain"]} {c["records"]:,} records / {c["signedHeads"]} heads' for c in s["chains"]))
PY
fi
