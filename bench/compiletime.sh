#!/usr/bin/env bash
# compiletime.sh OUT: the time and peak memory of recompiling, after an
# edit, the generated registry package, the tool package and the
# hand-written closure map (closures/) of the synthetic toolboxes of 10,
# 100 and 1,000 tools that run.sh writes into synth/ (go run ./cmd/synth,
# then go generate). Each package is edited
# (a comment appended to a copy, so the build cache misses for it alone)
# and built with go build under /usr/bin/time, three times; the median
# time and the largest peak RSS go to OUT/compiletime.md. The edit is
# undone afterwards.
set -euo pipefail
out=$(cd "${1:?usage: compiletime.sh OUT}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
sizes=${COMPILE_SIZES:-10 100 1000}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# one PKGDIR FILE: edit FILE three times, rebuilding PKGDIR each time;
# prints "median-seconds max-rss-MB".
one() {
	local dir=$1 file=$2 t
	t=$(mktemp)
	cp "$file" "$file.orig"
	for i in 1 2 3; do
		echo "// edit $i $RANDOM$RANDOM" >>"$file"
		(cd "$here" && /usr/bin/time -f "%e %M" -o "$t.$i" go build -o /dev/null "./$dir")
	done
	mv "$file.orig" "$file"
	local secs rss
	secs=$(cat "$t".? | awk '{print $1}' | median)
	rss=$(cat "$t".? | awk '{print $2}' | sort -n | tail -1)
	rm -f "$t" "$t".?
	echo "$secs $((rss / 1024))"
}

{
	echo "| tools | zz_registry_gen.go (lines, bytes) | registry package: rebuild (s, median of 3), peak RSS (MB) | tool package: rebuild (s), peak RSS (MB) | registry ÷ tools (time) | hand-written closure map: rebuild (s), peak RSS (MB) |"
	echo "|---:|---:|---:|---:|---:|---:|"
	for n in $sizes; do
		d=synth/n$n
		gen=$here/$d/zz_registry_gen.go
		read -r rs rm < <(one "$d" "$gen")
		read -r ts tm < <(one "$d/toolbox" "$(ls "$here/$d"/toolbox/*.go | head -1)")
		read -r cs cm < <(one "$d/closures" "$here/$d/closures/closures.go")
		ratio=$(awk -v a="$rs" -v b="$ts" 'BEGIN {printf "%.1f×", a/b}')
		echo "| $n | $(wc -l <"$gen"), $(wc -c <"$gen") | $rs s, $rm MB | $ts s, $tm MB | $ratio | $cs s, $cm MB |"
	done
} >"$out/compiletime.md"
cat "$out/compiletime.md"
