#!/usr/bin/env bash
# What building checkpoints costs evaluate (docs/receipts.md, docs/performance.md
# "Decision receipts"): one seeded store (bench/trust.sh) copied twice; server
# A signs chain heads and builds and signs checkpoints every second (the
# default is every 60 s: the work per record is the same, done in smaller
# passes), server B never (its head interval a day). wrk runs on
# POST /api/trust/evaluate alternate between them (other load on the machine
# hits both alike); prints each run's req/s and p99, then each server's CPU
# time (/proc, background jobs included, from start to end, so the
# checkpoints A builds between its runs count) per request, their ratio, the
# background jobs thread's CPU per request in each (the difference is what
# heads and checkpoints cost, apart from the noise of the request threads),
# and A's tree size.
#
#   RUNS=6 SECS=6 bench/receipts_load.sh
#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CREDENCE_BIN:-"$ROOT/build/release/src/app/credence"}
W=$(mktemp -d /tmp/credence-receipts-load-XXXXXX)
OFF="--rate-limit-user-rps 0 --rate-limit-key-rps 0 --rate-limit-address-rps 0 --jobs-interval-ms 1000"
mkdir -p $W/seed
KEEP_DIR=$W/seed SERVER_ARGS="$OFF" $ROOT/bench/trust.sh 1 4 >/dev/null 2>&1
cp -r $W/seed $W/a; cp -r $W/seed $W/b
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PA=$(free_port); PB=$(free_port)
$BIN serve --dev --listen 127.0.0.1:$PA --data-dir $W/a $OFF --chain-head-interval-seconds 1 2>$W/a/server2.log & A=$!
$BIN serve --dev --listen 127.0.0.1:$PB --data-dir $W/b $OFF --chain-head-interval-seconds 86400 2>$W/b/server2.log & B=$!
trap 'kill $A $B 2>/dev/null; wait 2>/dev/null; rm -rf "$W"' EXIT
for p in $PA $PB; do for _ in $(seq 100); do curl -sf "http://127.0.0.1:$p/healthz" >/dev/null && break; sleep 0.05; done; done
export BODY_FILE=$W/seed/body.json TOKEN=$(cat $W/seed/token)
ticks() { awk '{print $14+$15}' /proc/$1/stat; }
# The background jobs' thread (named credence-jobs): heads and checkpoints run there.
jobs_ticks() { grep -l '^credence-jobs$' /proc/$1/task/*/comm | sed 's/comm$/stat/' | xargs awk '{print $14+$15}'; }
declare -A total_n
run() { # port label
  local out n rps
  out=$(wrk -t1 -c32 -d${SECS:-6}s --latency -s $ROOT/bench/trust.lua "http://127.0.0.1:$1/api/trust/evaluate")
  n=$(echo "$out" | awk '/requests in/{print $1}')
  rps=$(echo "$out" | awk '/Requests\/sec/{print $2}')
  non2xx=$(echo "$out" | awk '/Non-2xx/{print $NF}')
  total_n[$2]=$(( ${total_n[$2]:-0} + n ))
  echo "$2 $rps req/s, $n requests, p99 $(echo "$out" | awk '/ 99%/{print $2}') non2xx=${non2xx:-0}"
}
for p in $PA $PB; do wrk -t1 -c32 -d2s -s $ROOT/bench/trust.lua "http://127.0.0.1:$p/api/trust/evaluate" >/dev/null; done
sleep 2  # A's checkpoints catch up with the warm-up
TA0=$(ticks $A); TB0=$(ticks $B); JA0=$(jobs_ticks $A); JB0=$(jobs_ticks $B)
for i in $(seq ${RUNS:-6}); do
  run $PA checkpoints; run $PB none
done
sleep 3  # A's last pass: the records of its last run are in its tree
TA1=$(ticks $A); TB1=$(ticks $B); JA1=$(jobs_ticks $A); JB1=$(jobs_ticks $B)
python3 -c "
na, nb = ${total_n[checkpoints]}, ${total_n[none]}
ta, tb = $TA1 - $TA0, $TB1 - $TB0
print(f'checkpoints: {na} requests, {ta*10000/na:.1f} us CPU/request')
print(f'none:        {nb} requests, {tb*10000/nb:.1f} us CPU/request')
ja, jb = $JA1 - $JA0, $JB1 - $JB0
print(f'checkpoints/none: throughput {na/nb:.3f}, CPU per request {(ta/na)/(tb/nb):.3f}')
print(f'background jobs thread: checkpoints {ja*10000/na:.2f} us/request, none {jb*10000/nb:.2f} us/request;'
      f' heads and checkpoints {(ja/na - jb/nb)*10000:.2f} us/request = {100*(ja/na - jb/nb)/(tb/nb):.2f}% of the CPU an evaluate takes')"
echo "A's log: $(curl -s -H "Authorization: Bearer $TOKEN" http://127.0.0.1:$PA/api/trust/log | python3 -c 'import json,sys; d=json.load(sys.stdin); print("tree size", d["treeSize"], "checkpoint", d["checkpoint"]["treeSize"])')"
echo "B's log: $(curl -s -H "Authorization: Bearer $TOKEN" http://127.0.0.1:$PB/api/trust/log | python3 -c 'import json,sys; d=json.load(sys.stdin); print("tree size", d["treeSize"])')"
