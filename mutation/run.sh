#!/usr/bin/env bash
# run.sh PKGDIR... : mutation testing with gremlins v0.6.0, one package at a
# time, each against its own tests only. Not part of CI: a run takes from a
# few minutes (jsonarg) to an hour (toolbox) on the 2-core machine.
#
#   mutation/run.sh jsonarg registry . chat   # "." is the root package
#
# Results go to OUT (default mutation/results): PKG.json, the report of
# gremlins, and summary.md, a line per package with killed, lived, not
# viable, timed out and efficacy. ROOT (default the module holding this
# script) is the module mutated, so a clean copy of another commit can be
# measured with this script: ROOT=/tmp/base mutation/run.sh jsonarg.
#
# gremlins needs three corrections here, made by a stand-in for the go
# command that it finds first on PATH:
#   - a mutant that does not compile is not viable: go test exits 1 for a
#     build failure as for a failing test, and gremlins would count it as
#     killed; the stand-in exits 2, gremlins' code for not viable;
#   - package main is tested as itself: gremlins names a package by looking
#     for its name among the directories of the path, so cmd/toolgen's
#     mutants would be tested with the root package's tests;
#   - coverage is taken per package: gremlins gathers it with ./... under
#     the package's directory, and mutates every file under it, testdata
#     included. The stand-in tests exactly the package, and -E leaves out
#     the files of subdirectories.
# Settings: WORKERS (default 1), COEFF (timeout coefficient, default 10),
# EXCLUDE (regular expressions of file paths, separated by spaces, to leave
# out besides subdirectories: a long run, such as cmd/toolgen's, can be
# split by file, EXCLUDE='emit\.go load\.go').
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "${ROOT:-$here/..}" && pwd)
out=${OUT:-$here/results}
mkdir -p "$out"
out=$(cd "$out" && pwd)
gremlins=$(go env GOPATH)/bin/gremlins
[ -x "$gremlins" ] || go install github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0
module=$(cd "$root" && go list -m)

shim=$(mktemp -d)
trap 'rm -rf "$shim"' EXIT
realgo=$(command -v go)
cat >"$shim/go" <<SHIM
#!/usr/bin/env bash
# The go command as gremlins should see it; see mutation/run.sh.
if [ "\$1" != test ]; then exec "$realgo" "\$@"; fi
args=("\${@:1:\$#-1}" "\$GREMLINS_PKG")  # the package, for the last argument
log=\$(mktemp)
"$realgo" "\${args[@]}" >"\$log" 2>&1
rc=\$?
if [ \$rc -ne 0 ] && grep -qE '\[(build|setup) failed\]|^# ' "\$log"; then rc=2; fi
cat "\$log"; rm -f "\$log"
exit \$rc
SHIM
chmod +x "$shim/go"

exclude=(-E '/')
for re in ${EXCLUDE:-}; do exclude+=(-E "$re"); done

for dir in "$@"; do
	dir=${dir#./}; dir=${dir%/}; [ -n "$dir" ] || dir=.
	pkg=$module; [ "$dir" = . ] || pkg=$module/$dir
	name=${dir//\//_}; [ "$dir" = . ] && name=root
	echo "== $(date +%T) $pkg" >&2
	(
		cd "$root/$dir"
		PATH="$shim:$PATH" GREMLINS_PKG="$pkg" "$gremlins" unleash \
			--workers "${WORKERS:-1}" --timeout-coefficient "${COEFF:-10}" \
			"${exclude[@]}" -o "$out/$name.json" "$root/$dir"
	) | tee "$out/$name.log"
	python3 - "$out/$name.json" "$dir" >>"$out/summary.md" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
f = {"KILLED": 0, "LIVED": 0, "NOT VIABLE": 0, "TIMED OUT": 0, "NOT COVERED": 0}
for file in r.get("files", []):
    for m in file.get("mutations", []):
        f[m["status"]] = f.get(m["status"], 0) + 1
k, l = f["KILLED"], f["LIVED"]
eff = 100 * k / (k + l) if k + l else 0
print(f"| {sys.argv[2]} | {k} | {l} | {f['NOT VIABLE']} | {f['TIMED OUT']} | {f['NOT COVERED']} | {eff:.1f}% |")
PY
	tail -1 "$out/summary.md" >&2
done
