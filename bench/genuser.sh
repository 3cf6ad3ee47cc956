#!/usr/bin/env bash
# genuser.sh: go generate ./... as a user's module runs it at 1,000 tools:
# a module of its own (example.com/big) that requires toolreg (replaced by
# this checkout), names toolgen in a tool directive, and holds one
# go:generate line over a toolbox of 1,000 synthetic tools (cmd/synth).
# Each run first edits one tool's description, as the edit loop does, so
# that toolgen regenerates; RUNS (default 7) runs after one that warms the
# build cache. Prints each run's wall and CPU seconds and their medians.
set -euo pipefail

runs=${RUNS:-7}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$here" && go build -o "$work/synth" ./cmd/synth)
mod=$work/big
mkdir -p "$mod"
"$work/synth" -n 1000 -dir "$mod" -pkg big
sed -i 's#go run [^ ]*cmd/toolgen#go run github.com/toolreg/toolreg/cmd/toolgen#' "$mod/gen.go"
cat >"$mod/go.mod" <<MOD
module example.com/big

go 1.26.0

require github.com/toolreg/toolreg v0.0.0

replace github.com/toolreg/toolreg => $root

tool github.com/toolreg/toolreg/cmd/toolgen
MOD
cd "$mod"
GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1
go generate ./... && go build ./...

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# Not ls | head -1: head ends ls with SIGPIPE, which pipefail makes fatal.
tools=(toolbox/*_tool.go)
tool=${tools[0]}
: >"$work/wall"
: >"$work/cpu"
echo "- $(go version); load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$runs"); do
	sed -i '0,/Description: "/s//Description: "Edited. /' "$tool"
	/usr/bin/time -f "%e %U %S" -o "$work/t" go generate ./...
	read -r wall user sys <"$work/t"
	echo "run $i: $wall s wall, $(awk -v u="$user" -v s="$sys" 'BEGIN{print u+s}') s CPU"
	echo "$wall" >>"$work/wall"
	awk -v u="$user" -v s="$sys" 'BEGIN{print u+s}' >>"$work/cpu"
done
grep -q 'Edited. ' zz_registry_gen.go
echo "median of $runs: $(median <"$work/wall") s wall, $(median <"$work/cpu") s CPU; load $(cut -d' ' -f1-3 /proc/loadavg)"
