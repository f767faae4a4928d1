#!/usr/bin/env bash
# Tracing's cost on evaluate (docs/tracing.md, docs/performance.md): one
# seeded store (bench/trust.sh) copied three times; server A without OTEL_*
# (tracing off), server B with an endpoint and OTEL_TRACES_SAMPLER=always_off
# (every request parses traceparent, gets a trace id for its log lines and
# makes its spans, none sampled), server C always_on exporting every span to
# a receiver on loopback (tests/support/http_sink.py), for scale. wrk runs
# alternate between them (other load on the machine hits all alike); prints
# req/s and the server's CPU time per request (/proc), its exporter thread
# included.
#
#   RUNS=6 SECS=6 bench/tracing.sh
#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CREDENCE_BIN:-"$ROOT/build/release/src/app/credence"}
W=$(mktemp -d /tmp/credence-trace-bench-XXXXXX)
OFF="--rate-limit-user-rps 0 --rate-limit-key-rps 0 --rate-limit-address-rps 0"
mkdir -p $W/seed
KEEP_DIR=$W/seed SERVER_ARGS="$OFF" $ROOT/bench/trust.sh 1 4 >/dev/null 2>&1
cp -r $W/seed $W/a; cp -r $W/seed $W/b; cp -r $W/seed $W/c
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PA=$(free_port); PB=$(free_port); PC=$(free_port)
python3 $ROOT/tests/support/http_sink.py $W/received >$W/sink.out & S=$!
for _ in $(seq 100); do grep -q ready $W/sink.out 2>/dev/null && break; sleep 0.05; done
PS=$(awk '{print $2}' $W/sink.out)
$BIN serve --dev --listen 127.0.0.1:$PA --data-dir $W/a $OFF 2>$W/a/server2.log & A=$!
OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$PS OTEL_TRACES_SAMPLER=always_off \
  $BIN serve --dev --listen 127.0.0.1:$PB --data-dir $W/b $OFF 2>$W/b/server2.log & B=$!
OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$PS OTEL_TRACES_SAMPLER=always_on OTEL_BSP_MAX_QUEUE_SIZE=65536 \
  $BIN serve --dev --listen 127.0.0.1:$PC --data-dir $W/c $OFF 2>$W/c/server2.log & C=$!
trap 'kill $A $B $C $S 2>/dev/null; wait 2>/dev/null; rm -rf "$W"' EXIT
for p in $PA $PB $PC; do for _ in $(seq 100); do curl -sf "http://127.0.0.1:$p/healthz" >/dev/null && break; sleep 0.05; done; done
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
for p in $PA $PB $PC; do wrk -t1 -c32 -d2s -s $ROOT/bench/trust.lua "http://127.0.0.1:$p/api/trust/evaluate" >/dev/null; done
for i in $(seq ${RUNS:-6}); do
  run $A $PA off; run $B $PB sampling_off; run $C $PC sampled
done
sleep 1
python3 -c "
n = {'off': ${total_n[off]}, 'sampling_off': ${total_n[sampling_off]}, 'sampled': ${total_n[sampled]}}
t = {'off': ${total_t[off]}, 'sampling_off': ${total_t[sampling_off]}, 'sampled': ${total_t[sampled]}}
for k in n: print(f'total: {k} {n[k]} requests, {t[k]*10000/n[k]:.1f} us CPU/request')
for k in ('sampling_off', 'sampled'):
    print(f'{k}/off: throughput {n[k]/n[\"off\"]:.3f}, CPU per request {(t[k]/n[k])/(t[\"off\"]/n[\"off\"]):.3f}')"
echo "batches received from the sampled server: $(ls $W/received 2>/dev/null | wc -l)"
grep -h '"tracing stopped"\|trace spans dropped' $W/c/server2.log | tail -2 || true
