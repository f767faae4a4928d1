#!/usr/bin/env bash
# Rate limits on evaluate (docs/operations.md, "Rate limits"): one seeded
# store (bench/trust.sh) copied twice; server A limits off, server B limits
# on with limits it never reaches, so every request pays for the check and
# none is refused; wrk runs alternate between them (other load on the machine
# hits both alike); prints req/s and the server's CPU time per request (/proc).
#
#   RUNS=6 SECS=6 bench/rate_limits.sh
#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CREDENCE_BIN:-"$ROOT/build/release/src/app/credence"}
W=$(mktemp -d /tmp/credence-rl-bench-XXXXXX)
OFF="--rate-limit-user-rps 0 --rate-limit-key-rps 0 --rate-limit-address-rps 0"
ON="--rate-limit-user-rps 1000000 --rate-limit-user-burst 10000000 --rate-limit-key-rps 1000000 --rate-limit-key-burst 10000000"
mkdir -p $W/seed
KEEP_DIR=$W/seed SERVER_ARGS="$OFF" $ROOT/bench/trust.sh 1 4 >/dev/null 2>&1
cp -r $W/seed $W/a; cp -r $W/seed $W/b
PA=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
PB=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
$BIN serve --dev --listen 127.0.0.1:$PA --data-dir $W/a $OFF 2>$W/a/server2.log & A=$!
$BIN serve --dev --listen 127.0.0.1:$PB --data-dir $W/b $ON 2>$W/b/server2.log & B=$!
trap 'kill $A $B 2>/dev/null; wait 2>/dev/null; rm -rf "$W"' EXIT
for p in $PA $PB; do for _ in $(seq 100); do curl -sf "http://127.0.0.1:$p/healthz" >/dev/null && break; sleep 0.05; done; done
export BODY_FILE=$W/seed/body.json TOKEN=$(cat $W/seed/token)
ticks() { awk '{print $14+$15}' /proc/$1/stat; }
declare -A total_n total_t
run() { # pid port label
  local t0 t1 out n rps
  t0=$(ticks $1)
  out=$(wrk -t1 -c32 -d${SECS:-6}s -s $ROOT/bench/trust.lua "http://127.0.0.1:$2/api/trust/evaluate")
  t1=$(ticks $1)
  n=$(echo "$out" | awk '/requests in/{print $1}')
  rps=$(echo "$out" | awk '/Requests\/sec/{print $2}')
  non2xx=$(echo "$out" | awk '/Non-2xx/{print $NF}')
  total_n[$3]=$(( ${total_n[$3]:-0} + n )); total_t[$3]=$(( ${total_t[$3]:-0} + t1 - t0 ))
  echo "$3 $rps req/s, $n requests, $(( (t1-t0)*10 )) ms CPU, $(python3 -c "print(f'{($t1-$t0)*10000/$n:.1f}')") us CPU/request non2xx=${non2xx:-0}"
}
# warm both
wrk -t1 -c32 -d2s -s $ROOT/bench/trust.lua "http://127.0.0.1:$PA/api/trust/evaluate" >/dev/null
wrk -t1 -c32 -d2s -s $ROOT/bench/trust.lua "http://127.0.0.1:$PB/api/trust/evaluate" >/dev/null
for i in $(seq ${RUNS:-6}); do
  run $A $PA off; run $B $PB on
done
python3 -c "
off_n, off_t, on_n, on_t = ${total_n[off]}, ${total_t[off]}, ${total_n[on]}, ${total_t[on]}
print(f'total: off {off_n} requests, {off_t*10000/off_n:.1f} us CPU/request; on {on_n} requests, {on_t*10000/on_n:.1f} us CPU/request')
print(f'on/off: throughput {on_n/off_n:.3f}, CPU per request {(on_t/on_n)/(off_t/off_n):.3f}')"
