#!/usr/bin/env bash
# editloop.sh OUT: the edit-generate-build loop a tool author goes
# through, timed. It copies the committed main module (git archive HEAD)
# into a scratch directory and, for each size (EDIT_SIZES, default
# "10 100 1000"), replaces toolbox/ with that many synthetic tools
# (cmd/synth), generates and builds the agent once to warm the build
# cache, then three times each: changes the body of one tool's Execute,
# runs `go generate .` and then either `go build ./cmd/agent` or the
# README's `go run ./cmd/agent tools` (go run links without debug
# information), and times the two together with /usr/bin/time. The
# median and the least of the three, and the peak RSS, go to
# OUT/editloop.md.
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
	echo "| tools | edit, go generate, go build ./cmd/agent (s, median [min] of 3) | edit, go generate, go run ./cmd/agent tools (s, median [min] of 3) | peak RSS (MB) |"
	echo "|---:|---:|---:|---:|"
	for n in $sizes; do
		"$work/synth.bin" -n "$n" -dir "$work"
		rm -f "$work/zz_registry_gen.go"
		(cd "$work" && go generate . && go build -o "$work/agent" ./cmd/agent && go run ./cmd/agent tools) >/dev/null 2>&1
		# The first tool, by a glob: ls | head would fail under pipefail
		# when head closes the pipe before ls is done.
		tools=("$work"/toolbox/*_tool.go)
		file=${tools[0]}
		: >"$work/build.txt"
		: >"$work/run.txt"
		for i in 1 2 3; do
			# A new answer in the tool's body: its package, the registry
			# and the agent's main are rebuilt, and the agent linked.
			for loop in build run; do
				sed -i "s/return fmt.Sprint(args), nil/return fmt.Sprint(\"edit $loop $i $RANDOM\", args), nil/" "$file"
				if [ $loop = build ]; then
					step="go build -o '$work/agent' ./cmd/agent"
				else
					step="go run ./cmd/agent tools >/dev/null"
				fi
				/usr/bin/time -f "%e %M" -a -o "$work/$loop.txt" \
					sh -c "cd '$work' && go generate . >/dev/null 2>&1 && $step"
				sed -i "s/return fmt.Sprint(\"edit [^\"]*\", args), nil/return fmt.Sprint(args), nil/" "$file"
			done
		done
		cell() { local secs; secs=$(awk '{print $1}' "$work/$1.txt"); echo "$(echo "$secs" | median) [$(echo "$secs" | sort -n | head -1)]"; }
		rss=$(cat "$work/build.txt" "$work/run.txt" | awk '{print $2}' | sort -n | tail -1)
		echo "| $n | $(cell build) | $(cell run) | $((rss / 1024)) |"
	done
} >"$out/editloop.md"
cat "$out/editloop.md"
