#!/usr/bin/env bash
# mcpload.sh: agent mcp -http on loopback, its tools in workers (the
# default, -isolate all) and in process (-isolate none), called by
# SESSIONS concurrent sessions (default 20) CALLS times (default 10000)
# with word_count; ROUNDS rounds (default 3), the two modes interleaved.
# Prints one line per run, and the ratio of the medians.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$bin"' EXIT
(cd "$root" && go build -o "$bin/agent" ./cmd/agent)
(cd "$here" && go build -o "$bin/mcpload" ./cmd/mcpload)
port=${PORT:-18931}
for round in $(seq "${ROUNDS:-3}"); do
	for mode in all none; do
		"$bin/agent" mcp -http "127.0.0.1:$port" -isolate "$mode" 2>"$bin/agent.log" &
		pid=$!
		until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; do sleep 0.05; done
		"$bin/mcpload" -url "http://127.0.0.1:$port/mcp" -sessions "${SESSIONS:-20}" -calls "${CALLS:-10000}" -label "$mode"
		kill "$pid"; wait "$pid" 2>/dev/null || true
	done
done | tee "$bin/runs"
median() { grep "^$1" "$bin/runs" | awk -F'\t' '{split($2,a," "); print a[2]}' | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
echo "throughput, workers / in process (medians): $(echo "$(median all) $(median none)" | awk '{printf "%.2f", $1/$2}')"
