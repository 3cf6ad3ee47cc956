#!/usr/bin/env bash
# run.sh [OUT]: every benchmark of BENCHMARKS.md, about 20 minutes on the
# 2-core machine. Raw outputs, benchstat tables and ratio tables go to OUT
# (default bench/results); OUT/figures.md gathers them.
#
# Each benchmark binary is built once and run COUNT times (default 6) with
# -count 1, the runs interleaved, so that a slow spell of a shared machine
# spreads over every contender instead of landing on one. Ratios are taken
# against a baseline measured in the same runs.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=${1:-$here/results}
mkdir -p "$out"
out=$(cd "$out" && pwd)
count=${COUNT:-6}
gobin=$(go env GOPATH)/bin
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT

step() { echo "== $(date +%T) $*" >&2; }

step tools
command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine; } >/dev/null 2>&1 || true
[ -x "$gobin/benchstat" ] || go install golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
benchstat=$gobin/benchstat

{
	echo "- $(go version)"
	echo "- CPU: $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) of memory"
	echo "- kernel $(uname -r); load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- toolreg at $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- . ':!bench' || echo ' (with uncommitted changes)')"
} >"$out/machine.md"

step "generate: the dispatch tool's registry and the synthetic toolboxes"
(cd "$here" && go generate .)
(cd "$here" && go build -o "$bin/synth" ./cmd/synth)
for n in 10 100 1000; do
	"$bin/synth" -n "$n" -dir "$here/synth/n$n" -pkg "n$n" -peers "github.com/toolreg/toolreg/bench/synth/n$n"
	(cd "$here/synth/n$n" && go generate .)
done

step "build the benchmark binaries"
(cd "$here" && go test -c -tags synth -o "$bin/bench.test" .)
(cd "$root" && go test -c -o "$bin/jsonarg.test" ./jsonarg)
(cd "$root" && go test -c -o "$bin/toolreg.test" .)
(cd "$root" && go test -c -o "$bin/chat.test" ./chat)
(cd "$root" && go test -c -o "$bin/sandbox.test" ./sandbox)
(cd "$root" && go build -o "$bin/agent" ./cmd/agent)
(cd "$here" && go build -o "$bin/hello" ./hello)

# run NAME BINARY DIR BENCH [BENCHTIME [BINARY2 OUT2]]: COUNT interleaved
# runs (of BINARY2 too, into OUT2, in turn with BINARY's).
run() {
	local name=$1 binary=$2 dir=$3 pattern=$4 benchtime=${5:-1s} binary2=${6:-} out2=${7:-}
	: >"$out/$name.txt"
	for i in $(seq "$count"); do
		(cd "$dir" && "$binary" -test.run '^$' -test.bench "$pattern" -test.benchmem -test.benchtime "$benchtime" -test.count 1) >>"$out/$name.txt"
		if [ -n "$binary2" ]; then
			(cd "$dir" && "$binary2" -test.run '^$' -test.bench "$pattern" -test.benchmem -test.benchtime "$benchtime" -test.count 1) >>"$out2"
		fi
	done
	"$benchstat" "$out/$name.txt" >"$out/$name.benchstat.txt"
}

step "dispatch"
run dispatch "$bin/bench.test" "$here" '^BenchmarkDispatch(Bad)?$'
step "instructions a call (callgrind: load-independent)"
if command -v valgrind >/dev/null; then
	"$here/instructions.sh" "$bin/bench.test" "$out"
else
	echo "no valgrind: instructions.md left out"
fi
step "the isolated call (sandbox workers)"
run sandbox "$bin/sandbox.test" "$root/sandbox" '^BenchmarkCall(InProcess|Worker|RegistryInProcess|RegistryWorker)$'
step "agent mcp start-up (registry and toolmcp.NewServer)"
run mcpstart "$bin/bench.test" "$here" '^BenchmarkMCPStart$' 0.5s
step "lookup"
run lookup "$bin/bench.test" "$here" '^BenchmarkLookup$' 0.5s
step "start-up"
run startup "$bin/bench.test" "$here" '^BenchmarkStartup$' 0.5s
step "jsonarg"
run jsonarg "$bin/jsonarg.test" "$root/jsonarg" '.' 0.5s
step "registry"
run registry "$bin/toolreg.test" "$root" '.' 0.5s
step "concurrency (chat)"
run chat "$bin/chat.test" "$root/chat" '^BenchmarkParallelToolCalls$'

step "ratios"
ratios() { (cd "$here" && go run ./cmd/ratios "$@"); }
ratios -prefix Dispatch/ -base Dispatch/direct "$out/dispatch.txt" >"$out/dispatch.ratios.md"
ratios -prefix DispatchBad/ -base DispatchBad/direct "$out/dispatch.txt" >"$out/dispatch-bad.ratios.md"
ratios -prefix Lookup/ -base Lookup/tools=10 "$out/lookup.txt" >"$out/lookup.ratios.md"
ratios -prefix Startup/ "$out/startup.txt" >"$out/startup.ratios.md"
ratios -prefix Decode/ "$out/jsonarg.txt" >"$out/jsonarg.ratios.md"
ratios -prefix Number/ "$out/jsonarg.txt" >>"$out/jsonarg.ratios.md"
ratios "$out/registry.txt" >"$out/registry.ratios.md"
ratios "$out/chat.txt" >"$out/chat.ratios.md"
ratios -base CallRegistryInProcess "$out/sandbox.txt" >"$out/sandbox.ratios.md"
ratios -prefix MCPStart/ "$out/mcpstart.txt" >"$out/mcpstart.ratios.md"

step "process start-up: agent tools against hello world"
# hyperfine when installed, else proctime.py (median of 40 runs after 5
# warm-ups; Python's own spawn cost is in both figures alike).
{
	echo "| command | median (ms) | min (ms) |"
	echo "|---|---:|---:|"
	for c in "$bin/hello" "$bin/agent tools"; do
		if command -v hyperfine >/dev/null; then
			hyperfine -N --warmup 5 --runs 40 --export-json "$out/proc.json" "$c" >/dev/null 2>&1
			m=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.2f %.2f" % (r["median"]*1000, r["min"]*1000))' "$out/proc.json")
			rm -f "$out/proc.json"
		else
			# shellcheck disable=SC2086
			m=$("$here/proctime.py" 40 $c)
		fi
		echo "| \`${c#"$bin/"}\` | ${m% *} | ${m#* } |"
	done
	echo
	echo "(timed with $(command -v hyperfine >/dev/null && echo hyperfine || echo proctime.py))"
} >"$out/process.md"

step "generate time, binary size, process start-up"
"$here/gentime.sh" "$out" >/dev/null
step "compile time and peak memory of the registry and tool packages"
"$here/compiletime.sh" "$out" >/dev/null
step "the edit-generate-build loop"
"$here/editloop.sh" "$out" >/dev/null

step "figures.md"
{
	echo "## Machine"
	echo
	cat "$out/machine.md"
	for s in "Dispatch, valid call:dispatch.ratios.md" "Dispatch, missing required field:dispatch-bad.ratios.md" \
		"The isolated call:sandbox.ratios.md" "agent mcp start-up:mcpstart.ratios.md" "Process start-up:process.md" \
		"Lookup:lookup.ratios.md" "Start-up:startup.ratios.md" "jsonarg against encoding/json:jsonarg.ratios.md" \
		"Registry micro-benchmarks:registry.ratios.md" "Concurrency (chat):chat.ratios.md"; do
		[ -f "$out/${s#*:}" ] || continue
		echo
		echo "## ${s%%:*}"
		echo
		cat "$out/${s#*:}"
	done
	echo
	cat "$out/gentime.md"
	echo
	echo "## Compile time"
	echo
	cat "$out/compiletime.md"
	echo
	echo "## The edit-generate-build loop"
	echo
	cat "$out/editloop.md"
} >"$out/figures.md"
step "done: $out/figures.md"
