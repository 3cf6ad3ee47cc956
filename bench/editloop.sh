#!/usr/bin/env bash
# editloop.sh OUT: the edit-generate-build loop a tool author goes
# through, timed. It copies the committed main module (git archive HEAD)
# into a scratch directory and, for each size (EDIT_SIZES, default
# "10 100 1000"), replaces toolbox/ with that many synthetic tools
# (cmd/synth), generates and builds the agent once to warm the build
# cache, then three times: changes the body of one tool's Execute, runs
# `go generate .` and `go build ./cmd/agent`, and times the two together
# with /usr/bin/time. The median and the least of the three, and the
# peak RSS, go to OUT/editloop.md.
set -euo pipefail

out=$(cd "${1:?usage: editloop.sh OUT}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
sizes=${EDIT_SIZES:-10 100 1000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$root" archive HEAD | tar -x -C "$work"
(cd "$here" && go build -o "$work/synth.bin" ./cmd/synth)
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

{
	echo "| tools | edit, go generate, go build ./cmd/agent (s, median [min] of 3) | peak RSS (MB) |"
	echo "|---:|---:|---:|"
	for n in $sizes; do
		"$work/synth.bin" -n "$n" -dir "$work"
		rm -f "$work/zz_registry_gen.go"
		(cd "$work" && go generate . && go build -o "$work/agent" ./cmd/agent) >/dev/null 2>&1
		file=$(ls "$work"/toolbox/*_tool.go | head -1)
		: >"$work/times.txt"
		for i in 1 2 3; do
			# A new answer in the tool's body: its package, the registry
			# and the agent are all rebuilt.
			sed -i "s/return fmt.Sprint(args), nil/return fmt.Sprint(\"edit $i $RANDOM\", args), nil/" "$file"
			/usr/bin/time -f "%e %M" -a -o "$work/times.txt" \
				sh -c "cd '$work' && go generate . >/dev/null 2>&1 && go build -o '$work/agent' ./cmd/agent"
			sed -i "s/return fmt.Sprint(\"edit [^\"]*\", args), nil/return fmt.Sprint(args), nil/" "$file"
		done
		secs=$(awk '{print $1}' "$work/times.txt")
		rss=$(awk '{print $2}' "$work/times.txt" | sort -n | tail -1)
		echo "| $n | $(echo "$secs" | median) [$(echo "$secs" | sort -n | head -1)] | $((rss / 1024)) |"
	done
} >"$out/editloop.md"
cat "$out/editloop.md"
