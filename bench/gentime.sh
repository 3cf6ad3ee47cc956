#!/usr/bin/env bash
# gentime.sh OUT: generate time, output size, agent binary size
# and agent start-up for synthetic toolboxes of 10, 100 and 1,000 tools.
#
# It copies the committed main module (git archive HEAD) into a scratch
# directory, and for each size replaces toolbox/ with synthetic tools
# (cmd/synth), then times `go generate .` there (go run ./cmd/toolgen, as
# the repository's generate.go does) with /usr/bin/time: three times after
# an edit of the tool package (the usual case: go list -export must then
# compile it) and twice unchanged. It also times the phases inside toolgen
# (gentime/phases_test.go.in, copied into the scratch cmd/toolgen), builds
# the agent and times `agent tools` with hyperfine. Results go to
# OUT/gentime.md; raw outputs to OUT/gentime/.

set -euo pipefail

out=$(cd "${1:?usage: gentime.sh OUT}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
sizes=${GENTIME_SIZES:-10 100 1000}
raw=$out/gentime-current
rm -rf "$raw"
mkdir -p "$raw"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

git -C "$root" archive HEAD | tar -x -C "$work"
repo=$work
report=$out/gentime.md
(cd "$here" && go build -o "$work/synth.bin" ./cmd/synth)
# Build toolgen once so that go run below finds it in the build cache.
(cd "$repo" && go build -o /dev/null ./cmd/toolgen)

# time_cmd LABEL CMD...: run CMD under /usr/bin/time, append "LABEL wall rss".
time_cmd() {
	local label=$1
	shift
	/usr/bin/time -f "%e %M" -o "$raw/time.tmp" "$@" >>"$raw/cmd.log" 2>&1
	echo "$label $(cat "$raw/time.tmp")" >>"$raw/times.txt"
}

# The agent of the repository as committed, with its real tools.
(cd "$repo" && go build -o "$work/agent-real" ./cmd/agent)
hyperfine -N --warmup 5 --runs 40 --export-json "$raw/hyperfine-real.json" \
	--export-markdown "$raw/hyperfine-real.md" "$work/agent-real tools" >>"$raw/cmd.log" 2>&1
/usr/bin/time -v "$work/agent-real" tools >/dev/null 2>"$raw/time-v-real.txt"

cp "$here/gentime/phases_test.go.in" "$repo/cmd/toolgen/zz_phases_test.go"

{
	echo "| tools | go generate after an edit (s, median [min] of 3) | peak RSS (MB) | go generate unchanged (s, median [min] of 2) | go list -export of the edited tool package (s) | in toolgen, warm: go list / parse+type-check / checks+schemas / emit (of which gofmt) (s) | zz_registry_gen.go (bytes) | agent build (s) | agent binary (bytes) | \`agent tools\` (ms, median [min]) |"
	echo "|---:|---:|---:|---:|---:|---|---:|---:|---:|---|"
} >"$raw/table.md"

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

for n in $sizes; do
	"$work/synth.bin" -n "$n" -dir "$repo"
	rm -f "$repo/zz_registry_gen.go"
	: >"$raw/times.txt"
	# The first generate builds the new tool package's export data; it
	# is not counted.
	(cd "$repo" && time_cmd warmup go generate .)
	for i in 1 2 3; do
		echo "// edit $i $RANDOM$RANDOM" >>"$repo/toolbox/all.go"
		(cd "$repo" && time_cmd edited go generate .)
	done
	for i in 1 2; do
		(cd "$repo" && time_cmd unchanged go generate .)
	done
	echo "// edit list $RANDOM$RANDOM" >>"$repo/toolbox/all.go"
	(cd "$repo/toolbox" && time_cmd golist go list -export -compiled -f '{{.Export}}' .)
	(cd "$repo" && time_cmd build go build -o "$work/agent-$n" ./cmd/agent)
	hyperfine -N --warmup 3 --runs 20 --export-json "$raw/hyperfine-$n.json" "$work/agent-$n tools" >>"$raw/cmd.log" 2>&1
	phases=$(cd "$repo" && TOOLGEN_PHASES_DIR="$repo" go test ./cmd/toolgen -run '^TestPhases$' -count 1 -v 2>&1 | grep '^phases' || true)
	echo "$phases" >>"$raw/phases.txt"
	cp "$raw/times.txt" "$raw/times-$n.txt"

	edited="$(awk '$1=="edited" {print $2}' "$raw/times.txt" | median) [$(awk '$1=="edited" {print $2}' "$raw/times.txt" | sort -n | head -1)]"
	rss=$(awk '$1=="edited" {print $3}' "$raw/times.txt" | sort -n | tail -1)
	unchanged="$(awk '$1=="unchanged" {print $2}' "$raw/times.txt" | median) [$(awk '$1=="unchanged" {print $2}' "$raw/times.txt" | sort -n | head -1)]"
	golist=$(awk '$1=="golist" {print $2}' "$raw/times.txt")
	golist=${golist:--}
	gensize=$(wc -c <"$repo/zz_registry_gen.go")
	build=- binsize=- start=-
	build=$(awk '$1=="build" {print $2}' "$raw/times.txt")
	binsize=$(wc -c <"$work/agent-$n")
	start=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.1f [%.1f]" % (r["median"]*1000, r["min"]*1000))' "$raw/hyperfine-$n.json")
	ph=$(echo "$phases" | sed -E 's/.*list=([^ ]+) typecheck=([^ ]+) check=([^ ]+) emit=([^ ]+) format=([^ ]+).*/\1 \/ \2 \/ \3 \/ \4 (\5)/')
	echo "| $n | $edited | $((rss / 1024)) | $unchanged | $golist | $ph | $gensize | $build | $binsize | $start |" >>"$raw/table.md"
done

{
	echo "### Generate time (bench/gentime.sh, toolgen as committed)"
	echo
	cat "$raw/table.md"
	echo
	echo "\`agent tools\` of the repository's own agent (7 tools), hyperfine:"
	echo
	cat "$raw/hyperfine-real.md"
	echo
	echo "Peak RSS of \`agent tools\` (real agent): $(awk -F': ' '/Maximum resident/ {print $2}' "$raw/time-v-real.txt") KB"
} >"$report"
rm -f "$raw/time.tmp" "$raw/times.txt"
cat "$report"
