#!/usr/bin/env bash
# binsize.sh [REV...]: the size of the agent binary, unstripped and
# stripped (-ldflags='-s -w'), with the number of packages it links, beside
# a hello-world and minimal MCP servers on the official Go SDK and on
# mark3labs/mcp-go (bench/mcpmin). With REVs, the agent is also built at
# each of those revisions, in a temporary worktree, for a before/after.
# Prints a Markdown table on stdout.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"; for w in "${worktrees[@]:-}"; do [ -n "$w" ] && git -C "$root" worktree remove --force "$w"; done' EXIT
worktrees=()

size() { stat -c %s "$1"; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }

# row NAME DIR PKG: build PKG in DIR both ways and print a table row.
row() {
	local name=$1 dir=$2 pkg=$3
	(cd "$dir" && go build -o "$out/u" "$pkg" && go build -ldflags='-s -w' -o "$out/s" "$pkg")
	local n
	n=$(cd "$dir" && go list -deps "$pkg" | wc -l)
	echo "| $name | $(mb "$(size "$out/u")") | $(mb "$(size "$out/s")") | $n |"
}

echo "- $(go version); $(uname -sm)"
echo
echo "| binary | unstripped | stripped | packages |"
echo "|---|---|---|---|"
for rev in "$@"; do
	w="$out/wt-$rev"
	git -C "$root" worktree add --quiet --detach "$w" "$rev"
	worktrees+=("$w")
	row "agent at $(git -C "$root" rev-parse --short "$rev")" "$w" ./cmd/agent
done
row "agent (this tree)" "$root" ./cmd/agent
row "hello world (bench/hello)" "$here" ./hello
row "minimal MCP server, Go SDK (bench/mcpmin/gosdk)" "$here" ./mcpmin/gosdk
row "minimal MCP server, mcp-go (bench/mcpmin/mcpgo)" "$here" ./mcpmin/mcpgo
