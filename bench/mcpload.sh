#!/usr/bin/env bash
# mcpload.sh: agent mcp -http on loopback, its tools in workers (the
# default, -isolate all) and in process (-isolate none), called by
# SESSIONS concurrent sessions (default 20) CALLS times (default 10000)
# with word_count; ROUNDS rounds (default 3), the two modes interleaved;
# AGENT_FLAGS are added to agent mcp's. Prints one line per run, and the
# ratio of the medians. The load generator shares the processors with the
# server, and collects garbage at a target of 800 (cmd/mcpload's -gogc);
# a GOGC given here is the server's and its workers'.
#
# With CPU=1 the load starts a second after the server is ready (the
# workers started ahead are up), and each line also gives the CPU time
# (user and system, from /proc) of the server and of its workers over the
# calls, with that of the workers the server ended and reaped meanwhile,
# and that time per call.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$bin"' EXIT
(cd "$root" && go build -o "$bin/agent" ./cmd/agent)
(cd "$here" && go build -o "$bin/mcpload" ./cmd/mcpload)
port=${PORT:-18931}
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
for round in $(seq "${ROUNDS:-3}"); do
	for mode in all none; do
		"$bin/agent" mcp -http "127.0.0.1:$port" -isolate "$mode" ${AGENT_FLAGS:-} 2>"$bin/agent.log" &
		pid=$!
		for i in $(seq 200); do
			curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break
			kill -0 "$pid" 2>/dev/null || { echo "agent mcp -isolate $mode exited:" >&2; cat "$bin/agent.log" >&2; exit 1; }
			sleep 0.05
		done
		curl -sf "http://127.0.0.1:$port/readyz" >/dev/null || { echo "agent mcp -isolate $mode not ready after 10 s" >&2; exit 1; }
		if [ "${CPU:-}" = 1 ]; then
			sleep 1 # the workers started ahead
			s0=$(ticks "$pid") w0=$(worker_ticks "$pid")
		fi
		line=$("$bin/mcpload" -url "http://127.0.0.1:$port/mcp" -sessions "${SESSIONS:-20}" -calls "$calls" -label "$mode")
		kill -0 "$pid" 2>/dev/null || { echo "agent mcp -isolate $mode exited during the load" >&2; exit 1; }
		if [ "${CPU:-}" = 1 ]; then
			s1=$(ticks "$pid") w1=$(worker_ticks "$pid")
			line=$(awk -v l="$line" -v s=$((s1 - s0)) -v w=$((w1 - w0)) -v t="$tick" -v n="$calls" 'BEGIN {
				printf "%s\tserver %.2f s (%.0f µs a call)\tworkers %.2f s (%.0f µs a call)", l, s/t, s/t/n*1e6, w/t, w/t/n*1e6 }')
		fi
		echo "$line"
		kill "$pid"; wait "$pid" 2>/dev/null || true
	done
done | tee "$bin/runs"
median() { grep "^$1" "$bin/runs" | awk -F'\t' '{split($2,a," "); print a[2]}' | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
echo "throughput, workers / in process (medians): $(echo "$(median all) $(median none)" | awk '{printf "%.2f", $1/$2}')"
