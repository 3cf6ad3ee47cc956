#!/usr/bin/env bash
# instructions.sh BENCH.TEST OUT: instructions per call of each path of
# BenchmarkDispatch, counted by valgrind's callgrind rather than timed, so
# that the figure does not move with the machine's load. Each path runs
# twice, at 2,000 and 12,000 iterations (-test.benchtime Nx); the
# difference, divided by 10,000, is one call's instructions without the
# start-up. The table goes to OUT/instructions.md. Instructions are not
# time: a goroutine hand-off costs little to count and much to wait for.
set -euo pipefail
bin=$(cd "$(dirname "${1:?usage: instructions.sh BENCH.TEST OUT}")" && pwd)/$(basename "$1")
out=$(cd "${2:?usage: instructions.sh BENCH.TEST OUT}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
command -v valgrind >/dev/null || { echo "instructions.sh: no valgrind" >&2; exit 1; }
paths=${PATHS:-direct generated call eino fantasy}

# count PATH N: the instructions of a run of N calls.
count() {
	local f
	f=$(mktemp)
	(cd "$here" && GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file="$f.out" \
		"$bin" -test.run '^$' -test.bench "^BenchmarkDispatch\$/^$1\$" -test.benchtime "$2x" -test.count 1 >/dev/null 2>"$f")
	grep -o 'Collected : [0-9]*' "$f" | awk '{print $3}'
	rm -f "$f" "$f.out"
}

{
	echo "| path | instructions a call | ÷ direct |"
	echo "|---|---:|---:|"
	floor=
	for p in $paths; do
		a=$(count "$p" 2000)
		b=$(count "$p" 12000)
		n=$(((b - a) / 10000))
		[ -n "$floor" ] || floor=$n
		echo "| $p | $n | $(awk -v a="$n" -v b="$floor" 'BEGIN {printf "%.2f×", a/b}') |"
	done
} >"$out/instructions.md"
cat "$out/instructions.md"
