#!/usr/bin/env bash
# Times `credence admin migrate-database` over a SQLite installation with
# RECORDS ledger records (default 1,000,000; docs/migrate-database.md,
# docs/performance.md):
#
#   bench/migrate_database.sh [RECORDS] [SOURCES_PER_RECORD]
#
# Seeds DIR (default /tmp/migrate-bench; kept, and reused while its record
# count matches) with bench/migrate_seed, then copies it into a fresh
# database on the PostgreSQL server of CREDENCE_TEST_PG_URL, or on a
# throwaway one (scripts/pg-test-server, stopped at the end), and prints
# the command's time, its peak memory and its summary.
#
# Build first: cmake --build build/release -- credence migrate_seed
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CREDENCE_BIN:-"$ROOT/build/release/src/app/credence"}
SEED=${SEED_BIN:-"$ROOT/build/release/bench/migrate_seed"}
RECORDS=${1:-1000000}
PER_RECORD=${2:-20}
DIR=${DIR:-/tmp/migrate-bench}
for b in "$BIN" "$SEED"; do [[ -x $b ]] || { echo "missing $b: cmake --build build/release -- credence migrate_seed" >&2; exit 1; }; done

if [[ ! -f $DIR/credence.db || "$(cat "$DIR/seeded" 2>/dev/null)" != "$RECORDS $PER_RECORD" ]]; then
  echo "seeding $DIR: $RECORDS records of $PER_RECORD sources" >&2
  "$SEED" "$DIR" "$RECORDS" "$PER_RECORD" >&2
  echo "$RECORDS $PER_RECORD" >"$DIR/seeded"
fi
echo "SQLite file: $(du -h "$DIR/credence.db" | cut -f1)" >&2

PG_DIR=
if [[ -z ${CREDENCE_TEST_PG_URL:-} ]]; then
  PG_DIR=$(mktemp -d /tmp/migrate-bench-pg-XXXXXX)
  CREDENCE_TEST_PG_URL=$("$ROOT/scripts/pg-test-server" start "$PG_DIR")
fi
DB=migrate_bench_$$
TARGET=${CREDENCE_TEST_PG_URL%/*}/$DB
cleanup() {
  psql -q "$CREDENCE_TEST_PG_URL" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
  if [[ -n $PG_DIR ]]; then "$ROOT/scripts/pg-test-server" stop "$PG_DIR" >/dev/null 2>&1 || true; rm -rf "$PG_DIR"; fi
}
trap cleanup EXIT
psql -q "$CREDENCE_TEST_PG_URL" -c "CREATE DATABASE $DB"

/usr/bin/time -f "%e s elapsed, %M KiB peak memory, %U s user, %S s system" -o "$DIR/time" \
  "$BIN" admin migrate-database --from "sqlite:$DIR/credence.db" --to "$TARGET" >"$DIR/summary.json" 2>"$DIR/stderr" \
  || { cat "$DIR/stderr" >&2; exit 1; }
grep -E "^copied (trust_decisions|trust_evidence|audit_log)|^made|^indexes|^foreign|^checked" "$DIR/stderr" >&2 || true
echo "migrate-database: $(cat "$DIR/time")" >&2
echo "PostgreSQL database: $(psql -tA "$CREDENCE_TEST_PG_URL" -c "SELECT pg_size_pretty(pg_database_size('$DB'))")" >&2
python3 - "$DIR/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
rows = {t["table"]: t["rows"] for t in s["tables"]}
print(f'rows {s["rows"]:,} (trust_decisions {rows["trust_decisions"]:,}, trust_evidence {rows["trust_evidence"]:,}, '
      f'audit_log {rows["audit_log"]:,}); copy {s["copySeconds"]} s, checks {s["verifySeconds"]} s, '
      f'total {s["seconds"]} s; chains verified: ' +
      ", ".join(f'{c["chain"]} {c["records"]:,} records / {c["signedHeads"]} heads' for c in s["chains"]))
PY
