#!/usr/bin/env bash
# Slow clients against a normal one (docs/performance.md, "Connections"):
# the server starts under the open-files limit systemd gives a service
# (soft 1,024, hard 524,288: `prlimit`), SLOW connections ("slowloris")
# each send a partial request header and one more header line every few
# seconds, reconnecting when closed, while a normal client sends one
# request a PROBE_MS on a new connection each time. Prints the normal
# client's latency percentiles and failures, and what the server shed.
#
#   bench/slowloris.sh [slow connections] [seconds] [hard limit]
#
# The third argument sets the server's hard open-files limit: the shell's (the
# default) lets the server raise its soft limit and hold every slow
# connection; 1024 leaves it at 1,024, so it must shed connections to keep
# serving.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CREDENCE_BIN:-"$ROOT/build/release/src/app/credence"}
SLOW=${1:-10000}
SECONDS_RUN=${2:-30}
HARD=${3:-$(ulimit -Hn)}
PROBE_MS=${PROBE_MS:-50}
[[ -x $BIN ]] || { echo "build first: cmake --build build/release" >&2; exit 1; }

DIR=$(mktemp -d /tmp/credence-slowloris-XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
prlimit --nofile=1024:"$HARD" -- "$BIN" serve --dev --listen "127.0.0.1:$PORT" --data-dir "$DIR" \
  ${SERVER_ARGS:-} 2>"$DIR/server.log" &
SERVER=$!
SLOW_PID=
cleanup() {
  [[ -n $SLOW_PID ]] && kill "$SLOW_PID" 2>/dev/null
  kill "$SERVER" 2>/dev/null
  wait 2>/dev/null || true
  [[ -n ${KEEP_DIR:-} ]] || rm -rf "$DIR"
}
trap cleanup EXIT
for _ in $(seq 200); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.05; done
grep -o '"msg":"open files limit"[^}]*' "$DIR/server.log" || true

# The slow clients: one asyncio process, bounded in time.
python3 - "$PORT" "$SLOW" "$((SECONDS_RUN + 15))" >"$DIR/slow.log" 2>&1 <<'PY' &
import asyncio, resource, sys, time
port, count, lifetime = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
end = time.monotonic() + lifetime
stats = {"opened": 0, "closed": 0, "failed": 0}
async def slow_client(i):
    while time.monotonic() < end:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            stats["failed"] += 1
            await asyncio.sleep(1)
            continue
        stats["opened"] += 1
        try:
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: slow\r\n")
            await writer.drain()
            while time.monotonic() < end:
                await asyncio.sleep(3 + (i % 5) * 0.5)
                writer.write(b"X-Slow: 1\r\n")
                await writer.drain()
                if reader.at_eof():
                    break
        except (OSError, ConnectionError):
            pass
        stats["closed"] += 1
        writer.close()
async def main():
    tasks = []
    for i in range(count):
        tasks.append(asyncio.create_task(slow_client(i)))
        if i % 500 == 499:
            await asyncio.sleep(0.05)
    await asyncio.sleep(max(0, end - time.monotonic()))
    print(stats, flush=True)
    for t in tasks:
        t.cancel()
asyncio.run(main())
PY
SLOW_PID=$!
sleep 8  # let the slow connections pile up

# The normal client: a request every PROBE_MS, a new connection each time.
python3 - "$PORT" "$SECONDS_RUN" "$PROBE_MS" <<'PY'
import http.client, sys, time
port, seconds, every = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]) / 1000
latencies, failures = [], []
end = time.monotonic() + seconds
while time.monotonic() < end:
    start = time.perf_counter()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/auth/dev-tenants")
        response = conn.getresponse()
        response.read()
        conn.close()
        if response.status != 200:
            failures.append(f"status {response.status}")
        else:
            latencies.append((time.perf_counter() - start) * 1000)
    except Exception as e:  # a refused, reset or timed-out request
        failures.append(type(e).__name__)
    time.sleep(max(0, every - (time.perf_counter() - start)))
latencies.sort()
def pct(p):
    return latencies[min(len(latencies) - 1, int(len(latencies) * p))] if latencies else float("nan")
print(f"normal client: {len(latencies)} ok, {len(failures)} failed {sorted(set(failures))}; "
      f"p50 {pct(0.50):.2f} ms, p99 {pct(0.99):.2f} ms, max {latencies[-1] if latencies else float('nan'):.2f} ms")
PY
open_now=$(ls /proc/"$SERVER"/fd 2>/dev/null | wc -l)
echo "server descriptors open at the end: $open_now"
kill "$SERVER"
wait "$SERVER" 2>/dev/null || true
grep -o '"msg":"connections shed"[^}]*' "$DIR/server.log" || true
wait "$SLOW_PID" 2>/dev/null || true
SLOW_PID=
echo "slow clients: $(tail -1 "$DIR/slow.log")"
