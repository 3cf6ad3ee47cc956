#!/usr/bin/env bash
# generate.sh [BEFORE [AFTER]]: the time of go generate ./... on this
# repository, and on a copy whose toolbox is 1,000 synthetic tools, for
# two commits of the repository (default: main and HEAD), interleaved run
# by run so that both see the same load; and the go commands toolgen runs
# on each (a wrapper of go on PATH logs them; go generate puts its own go
# first on PATH, so toolgen is run directly for the count).
#
# Each commit is copied (git archive) into a scratch directory; the build
# cache is warmed by one run that is not counted; then RUNS (default 5)
# runs of each, alternating, with /usr/bin/time. The medians of the wall
# time and of the CPU time (user and system, the go commands' included),
# and the ratios after/before, go to stdout as a Markdown table: on a
# machine shared with other work the CPU time is the steadier figure.
set -euo pipefail

before=${1:-main}
after=${2:-HEAD}
runs=${RUNS:-5}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A go that logs its arguments, for counting toolgen's go commands.
mkdir -p "$work/bin"
realgo=$(command -v go)
cat >"$work/bin/go" <<EOF
#!/usr/bin/env bash
echo "\$*" >>"$work/golog"
exec "$realgo" "\$@"
EOF
chmod +x "$work/bin/go"

(cd "$here" && go build -o "$work/synth" ./cmd/synth)
for rev in "$before" "$after"; do
	for kind in repo synth; do
		d=$work/$kind-$(git -C "$root" rev-parse --short "$rev")
		mkdir -p "$d"
		git -C "$root" archive "$rev" | tar -x -C "$d"
		if [ "$kind" = synth ]; then
			"$work/synth" -n 1000 -dir "$d"
			rm -rf "$d/skills" # they name the repository's tools
		fi
		(cd "$d" && go build -o /dev/null ./cmd/toolgen && go generate ./... >/dev/null 2>&1 || true)
	done
done

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# time_gen DIR: one timed go generate ./... in DIR, its wall seconds
# appended to DIR.times, its CPU seconds to DIR.cpu.
time_gen() {
	(cd "$1" && /usr/bin/time -f "%e %U %S" -o "$1.t" go generate ./... >/dev/null 2>&1 || true)
	awk '{print $1}' "$1.t" >>"$1.times"
	awk '{print $2 + $3}' "$1.t" >>"$1.cpu"
}

# count_golist DIR: the go commands toolgen runs for DIR's toolbox and
# internal/testbox, into DIR.golist.
count_golist() {
	(cd "$1" && go build -o "$1.toolgen" ./cmd/toolgen)
	: >"$work/golog"
	(cd "$1" && PATH="$work/bin:$PATH" "$1.toolgen" >/dev/null 2>&1 || true)
	(cd "$1/internal/testbox" && PATH="$work/bin:$PATH" "$1.toolgen" -dir tools >/dev/null 2>&1 || true)
	grep -c '^list' "$work/golog" >"$1.golist" || true
}

for rev in "$before" "$after"; do
	for kind in repo synth; do
		count_golist "$work/$kind-$(git -C "$root" rev-parse --short "$rev")"
	done
done

for i in $(seq "$runs"); do
	for rev in "$before" "$after"; do
		for kind in repo synth; do
			time_gen "$work/$kind-$(git -C "$root" rev-parse --short "$rev")"
		done
	done
done

echo "| go generate ./... (s, median of $runs) | $before | $after | after/before | CPU $before | CPU $after | CPU after/before |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for kind in repo synth; do
	bd=$work/$kind-$(git -C "$root" rev-parse --short "$before")
	ad=$work/$kind-$(git -C "$root" rev-parse --short "$after")
	b=$(median <"$bd.times")
	a=$(median <"$ad.times")
	bc=$(median <"$bd.cpu")
	ac=$(median <"$ad.cpu")
	bl=$(median <"$bd.golist")
	al=$(median <"$ad.golist")
	label="this repository"
	[ "$kind" = synth ] && label="1,000 synthetic tools"
	ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a/b}'; }
	echo "| $label | $b ($bl go list) | $a ($al go list) | $(ratio "$a" "$b") | $bc | $ac | $(ratio "$ac" "$bc") |"
done
