#!/usr/bin/env bash
# mcpcpu.sh: what a call costs in CPU under load. agent mcp -http on
# loopback, its tools in workers (-isolate all) and in process (-isolate
# none), called by SESSIONS concurrent sessions (default 20) CALLS times
# (default 10000) with word_count, ROUNDS rounds (default 2), the two
# modes interleaved; AGENT_FLAGS are added to agent mcp's. Prints mcpload's line and the CPU time (user and
# system, from /proc) of the server and of its workers (with what they
# ran) over the calls, and that time per call.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$bin"' EXIT
(cd "$root" && go build -o "$bin/agent" ./cmd/agent)
(cd "$here" && go build -o "$bin/mcpload" ./cmd/mcpload)
port=${PORT:-18932}
calls=${CALLS:-10000}
tick=$(getconf CLK_TCK)
# ticks PID: the CPU ticks of PID itself.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# worker_ticks PID: the CPU ticks of PID's children and theirs, with what
# they reaped, and of the children PID reaped (a worker ended to make
# room for another counts there once it is gone).
worker_ticks() {
	local sum c g v
	sum=$(awk '{print $16 + $17}' "/proc/$1/stat")
	for c in $(pgrep -P "$1"); do
		for g in "$c" $(pgrep -P "$c"); do
			v=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$g/stat" 2>/dev/null || echo 0)
			sum=$((sum + v))
		done
	done
	echo "$sum"
}
for round in $(seq "${ROUNDS:-2}"); do
	for mode in all none; do
		"$bin/agent" mcp -http "127.0.0.1:$port" -isolate "$mode" ${AGENT_FLAGS:-} 2>"$bin/agent.log" &
		pid=$!
		for i in $(seq 200); do
			curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break
			kill -0 "$pid" 2>/dev/null || { echo "agent mcp -isolate $mode exited" >&2; exit 1; }
			sleep 0.05
		done
		curl -sf "http://127.0.0.1:$port/readyz" >/dev/null || { echo "agent mcp -isolate $mode not ready after 10 s" >&2; exit 1; }
		sleep 1 # the workers started ahead
		s0=$(ticks "$pid") w0=$(worker_ticks "$pid")
		line=$("$bin/mcpload" -url "http://127.0.0.1:$port/mcp" -sessions "${SESSIONS:-20}" -calls "$calls" -label "$mode")
		kill -0 "$pid" 2>/dev/null || { echo "agent mcp -isolate $mode exited during the load" >&2; exit 1; }
		s1=$(ticks "$pid") w1=$(worker_ticks "$pid")
		kill "$pid"; wait "$pid" 2>/dev/null || true
		awk -v l="$line" -v s=$((s1 - s0)) -v w=$((w1 - w0)) -v t="$tick" -v n="$calls" 'BEGIN {
			printf "%s\tserver %.2f s (%.0f µs a call)\tworkers %.2f s (%.0f µs a call)\n", l, s/t, s/t/n*1e6, w/t, w/t/n*1e6 }'
	done
done
