#!/usr/bin/env bash
# headline.sh [OUT]: the figures at the top of BENCHMARKS.md, those users
# get, in about ten minutes. Run it on a quiet machine: every figure is
# also given as a ratio against a baseline measured in the same run,
# interleaved where the tool allows.
#
#   1. start-up: agent -version and agent tools against a hello-world
#      (median wall time of 40 runs each, interleaved);
#   2. agent mcp -http: the first 200 from /readyz and the idle memory,
#      against a minimal server on the official Go SDK (bench/cmd/firstanswer;
#      the memory again with -cold, each binary read from the disk at each
#      start: the RSS of a binary run from the page cache depends on the
#      folios its pages happen to be cached in);
#   3. a tool worker's start on the real agent binary, and its memory
#      (BenchmarkWorkerStart, against starting a hello-world);
#   4. the isolated call: Registry.Call to a warm worker against in process
#      and against a bare pipe round trip to another process,
#      1, 4 and 20 calls at once (sandbox's BenchmarkCallRegistry*);
#   5. agent mcp -http under load: 20 sessions of word_count calls, workers
#      against in process (bench/mcpload.sh);
#   6. the first tools/call of agent mcp -http right after /readyz, and
#      100 ms after its session opens, against the warm calls after it
#      (bench/cmd/firstcall);
#   7. in process: Registry.Call and Entry.Bind, with good and with bad
#      arguments, against hand-written decoding (BenchmarkDispatch,
#      BenchmarkDispatchBad);
#   8. the agent's size, and the edit-generate-build loop at 100 tools;
#   9. go generate ./... on a copy of this repository, and on a user's
#      module of 1,000 synthetic tools (bench/genuser.sh);
#  10. go test -short -count=1 ./... with its test binaries built.
#
# Raw outputs and OUT/headline.md go to OUT (default bench/results).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=${1:-$here/results}
mkdir -p "$out"
out=$(cd "$out" && pwd)
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
step() { echo "== $(date +%T) $*" >&2; }

(cd "$root" && go build -o "$bin/agent" ./cmd/agent)
(cd "$here" && go build -o "$bin/hello" ./hello && go build -o "$bin/gosdk" ./mcpmin/gosdk &&
	go build -o "$bin/firstanswer" ./cmd/firstanswer && go build -o "$bin/firstcall" ./cmd/firstcall)
[ -x "$(go env GOPATH)/bin/benchstat" ] || go install golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
benchstat=$(go env GOPATH)/bin/benchstat

{
	echo "- $(go version), $(nproc) cores, kernel $(uname -r)"
	echo "- load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- toolreg at $(git -C "$root" rev-parse --short HEAD)"
	echo
} >"$out/headline.md"

step "start-up"
if command -v perf >/dev/null; then
	# perf stat forks the command itself: no interpreter's spawn in the figures.
	{
		echo "| command (perf stat -r 40, 3 rounds interleaved) | mean ms | × hello world |"
		echo "|---|---:|---:|"
		for round in 1 2 3; do
			for c in "$bin/hello" "$bin/agent -version" "$bin/agent tools"; do
				# shellcheck disable=SC2086
				perf stat -r 40 $c 2>&1 >/dev/null | awk -v c="${c#"$bin/"}" '/elapsed/ {print c "\t" $1 * 1000}'
			done
		done | awk -F'\t' '{s[$1] += $2; n[$1]++} END {h = s["hello"] / n["hello"]; for (c in s) printf "| `%s` | %.2f | %.1f× |\n", c, s[c] / n[c], s[c] / n[c] / h}' | sort
		echo
	} >>"$out/headline.md"
else
python3 - "$bin" >>"$out/headline.md" <<'EOF'
import statistics, subprocess, sys, time
b = sys.argv[1]
cmds = {"hello world": [b + "/hello"], "agent -version": [b + "/agent", "-version"], "agent tools": [b + "/agent", "tools"]}
ts = {k: [] for k in cmds}
for _ in range(5):
    for c in cmds.values():
        subprocess.run(c, stdout=subprocess.DEVNULL, check=True)
for _ in range(40):
    for k, c in cmds.items():
        t0 = time.perf_counter()
        subprocess.run(c, stdout=subprocess.DEVNULL, check=True)
        ts[k].append((time.perf_counter() - t0) * 1000)
base = statistics.median(ts["hello world"])
print("| command (40 runs, interleaved) | median ms | min ms | × hello world |")
print("|---|---:|---:|---:|")
for k, v in ts.items():
    print("| `%s` | %.2f | %.2f | %.1f× |" % (k, statistics.median(v), min(v), statistics.median(v) / base))
print()
EOF
fi

step "agent mcp first answer"
{
	echo '```'
	"$bin/firstanswer" -n 20 -- "$bin/agent" mcp -http 127.0.0.1:18301 :: http://127.0.0.1:18301/readyz \
		-- "$bin/gosdk" -http 127.0.0.1:18302 :: http://127.0.0.1:18302/readyz | sed "s#$bin/##g"
	echo "with -cold:"
	"$bin/firstanswer" -cold -n 20 -- "$bin/agent" mcp -http 127.0.0.1:18301 :: http://127.0.0.1:18301/readyz \
		-- "$bin/gosdk" -http 127.0.0.1:18302 :: http://127.0.0.1:18302/readyz | sed "s#$bin/##g"
	echo '```'
	echo
} >>"$out/headline.md"

step "worker start"
(cd "$here" && go test -run '^$' -bench WorkerStart -benchtime 30x -count 5 .) >"$out/workerstart.txt"
{
	echo '```'
	"$benchstat" -col /namespaces "$out/workerstart.txt" 2>/dev/null || "$benchstat" "$out/workerstart.txt"
	echo '```'
	echo
} >>"$out/headline.md"

step "the isolated call"
(cd "$root" && go test -run '^$' -bench 'CallRegistry|PipeRoundTrip' -benchmem -count 6 ./sandbox) >"$out/isolated.txt"
{
	echo '```'
	"$benchstat" "$out/isolated.txt"
	echo '```'
	echo
} >>"$out/headline.md"

step "agent mcp under load"
{
	echo '```'
	ROUNDS=3 CALLS=${CALLS:-6000} "$here/mcpload.sh" || echo "(mcpload.sh exited with status $?)"
	echo '```'
	echo
} >>"$out/headline.md"

step "the first call"
{
	echo '```'
	"$bin/firstcall" -n 20 -warm 20 -- "$bin/agent" mcp -http 127.0.0.1:18303 :: http://127.0.0.1:18303 \
		-- "$bin/agent" mcp -isolate none -http 127.0.0.1:18304 :: http://127.0.0.1:18304 2>/dev/null | sed "s#$bin/##g"
	echo "the first call 100 ms after the session opens, as a client's model reads the tool list:"
	"$bin/firstcall" -n 20 -warm 20 -after 100ms -- "$bin/agent" mcp -http 127.0.0.1:18303 :: http://127.0.0.1:18303 \
		-- "$bin/agent" mcp -isolate none -http 127.0.0.1:18304 :: http://127.0.0.1:18304 2>/dev/null | sed "s#$bin/##g"
	echo '```'
	echo
} >>"$out/headline.md"

step "in process: a call and the failure path"
(cd "$here" && go test -run '^$' -bench 'Dispatch(Bad)?/(direct|generated|call)$' -benchmem -count 6 .) >"$out/dispatch.txt"
{
	echo '```'
	"$benchstat" "$out/dispatch.txt"
	echo '```'
	echo
} >>"$out/headline.md"

step "size and the edit loop"
{
	echo "agent binary: $(stat -c %s "$bin/agent") bytes; minimal Go SDK server: $(stat -c %s "$bin/gosdk") bytes"
	echo
} >>"$out/headline.md"
EDIT_SIZES=100 "$here/editloop.sh" "$out" >/dev/null
cat "$out/editloop.md" >>"$out/headline.md"

step "go generate"
repo=$(mktemp -d)
git -C "$root" archive HEAD | tar -x -C "$repo"
(cd "$repo" && go generate ./... >/dev/null)
{
	echo "go generate ./... on a copy of this repository, 5 runs after one that warms the cache (wall s, CPU s):"
	echo '```'
	for _ in 1 2 3 4 5; do
		(cd "$repo" && /usr/bin/time -f '%e %U %S' go generate ./... 2>&1 >/dev/null | tail -1 | awk '{print $1, $2 + $3}')
	done
	echo '```'
	echo "a user's module of 1,000 synthetic tools (RUNS=7 bench/genuser.sh):"
	echo '```'
	RUNS=7 "$here/genuser.sh"
	echo '```'
	echo
} >>"$out/headline.md"
rm -rf "$repo"

step "the test suite"
(cd "$root" && go test -short -count=1 ./... >/dev/null 2>&1) || true
{
	echo "go test -short -count=1 ./..., 3 runs with the test binaries built (wall s, CPU s):"
	echo '```'
	for _ in 1 2 3; do
		(cd "$root" && /usr/bin/time -f '%e %U %S' go test -short -count=1 ./... 2>&1 >/dev/null | tail -1 | awk '{print $1, $2 + $3}')
	done
	echo '```'
} >>"$out/headline.md"
step "done: $out/headline.md"
