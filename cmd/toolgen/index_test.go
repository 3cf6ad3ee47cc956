package main

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"

	"github.com/toolreg/toolreg/internal/buildcache"
)

// indexNameSets are sets of tool names: realistic ones, and random ones
// drawn from the characters a name may hold, with many shared prefixes
// and suffixes.
func indexNameSets() [][]string {
	verbs := []string{"get", "list", "find", "create", "update", "delete", "search", "fetch"}
	nouns := []string{"weather", "files", "issues", "users", "calendar_events", "stock_quotes"}
	var realistic []string
	for k := range 20 {
		for _, v := range verbs {
			for _, n := range nouns {
				name := v + "_" + n
				if k > 0 {
					name += fmt.Sprintf("_%d", k)
				}
				realistic = append(realistic, name)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
	random := func(n int) []string {
		seen := map[string]bool{}
		var out []string
		for len(out) < n {
			var b strings.Builder
			b.WriteString([]string{"", "tool_", "get_the_"}[r.IntN(3)])
			for range 1 + r.IntN(6) {
				b.WriteByte(chars[r.IntN(len(chars))])
			}
			b.WriteString([]string{"", "_v2", "_tool"}[r.IntN(3)])
			if s := b.String(); !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		return out
	}
	return [][]string{nil, {"now"}, {"a", "b"}, {"ab", "ba"}, realistic[:10], realistic, random(50), random(1000)}
}

func TestIndexFindsEveryName(t *testing.T) {
	for _, names := range indexNameSets() {
		if len(names) == 0 {
			continue
		}
		ix := buildNameIndex(names)
		if len(ix.slots) < 2*len(names) {
			t.Errorf("%d names: %d slots, want at least twice as many", len(names), len(ix.slots))
		}
		for i, n := range names {
			if got := ix.lookup(names, n); got != i {
				t.Errorf("%d names: %q found at %d, want %d", len(names), n, got, i)
			}
		}
		for _, miss := range []string{"", "x", "no_such_tool", "get_weather_99", "GET_WEATHER"} {
			if got := ix.lookup(names, miss); got != -1 && names[got] != miss {
				t.Errorf("%d names: %q found at %d (%q)", len(names), miss, got, names[got])
			}
		}
		for _, n := range names {
			for p := range len(n) {
				off := n[:p] + "~" + n[p+1:]
				if got := ix.lookup(names, off); got != -1 {
					t.Errorf("%d names: %q found at %d (%q)", len(names), off, got, names[got])
				}
			}
		}
	}
}

// TestIndexProbes checks that the chosen seed keeps probes short: the
// reason for the table.
func TestIndexProbes(t *testing.T) {
	for _, names := range indexNameSets() {
		if len(names) == 0 {
			continue
		}
		ix := buildNameIndex(names)
		total := 0
		for _, n := range names {
			p := indexHash(n, ix.seed, ix.bits)
			for probes := 1; ; probes++ {
				if names[ix.slots[p]-1] == n {
					total += probes
					break
				}
				p = (p + 1) & (len(ix.slots) - 1)
			}
		}
		if mean := float64(total) / float64(len(names)); mean > 1.5 {
			t.Errorf("%d names: %.2f probes per name on average, want at most 1.5", len(names), mean)
		}
	}
}

// TestIndexRuns compiles and runs the generated genIndex and genHash,
// which must find every name where lookup does, and nothing else.
func TestIndexRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	t.Parallel()
	var prog bytes.Buffer
	prog.WriteString("package main\n\nimport \"fmt\"\n\ntype entry struct{ Name string }\n\n")
	var cases []string
	for k, names := range indexNameSets() {
		var tools []*toolInfo
		for _, n := range names {
			tools = append(tools, &toolInfo{Name: n})
		}
		f := jen.NewFile("main")
		emitIndex(f, tools)
		var buf bytes.Buffer
		if err := f.Render(&buf); err != nil {
			t.Fatalf("%d names: %v", len(names), err)
		}
		// Give each set's declarations names of their own.
		src := strings.TrimPrefix(buf.String(), "package main\n")
		for _, id := range []string{"genIndex", "genHash", "genSlots", "genEntries"} {
			src = strings.ReplaceAll(src, id, fmt.Sprintf("%s%d", id, k))
		}
		prog.WriteString(src)
		fmt.Fprintf(&prog, "\nvar genEntries%d = []entry{", k)
		for _, n := range names {
			fmt.Fprintf(&prog, "{%q},", n)
		}
		prog.WriteString("}\n")
		probes := append([]string{"", "no_such_tool", "~"}, names...)
		for _, n := range names {
			probes = append(probes, n+"x", "x"+n)
		}
		var ix *nameIndex
		if len(names) > 0 {
			ix = buildNameIndex(names)
		}
		for _, p := range probes {
			want := -1
			if ix != nil {
				want = ix.lookup(names, p)
			}
			cases = append(cases, fmt.Sprintf("{%d, genIndex%d, %q, %d},", k, k, p, want))
		}
	}
	prog.WriteString("\nvar cases = []struct {\n\tset int\n\tindex func(string) int\n\tname string\n\twant int\n}{\n" + strings.Join(cases, "\n") + "\n}\n\n")
	prog.WriteString(`func main() {
	failed := false
	for _, c := range cases {
		if got := c.index(c.name); got != c.want {
			fmt.Printf("set %d: %q at %d, want %d\n", c.set, c.name, got, c.want)
			failed = true
		}
	}
	if !failed {
		fmt.Println("ok")
	}
}
`)
	dir, trimpath := buildcache.Dir(t, "toolgen "+t.Name()+" "+mod(t))
	if err := os.WriteFile(filepath.Join(dir, "main.go"), prog.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module indextest\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", append(append([]string{"run"}, goFlags(trimpath)...), ".")...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Errorf("generated index: %v\n%s", err, out)
	}
}

// TestWideSlots checks the width of genSlots at the limit of two bytes: a
// slot holds up to the number of names, so more than 65,535 names need
// four bytes a slot, and fewer than 65,535 take two (at 65,535, either
// holds them).
func TestWideSlots(t *testing.T) {
	for _, n := range []int{1, 1000, 65533, 65534, 65535, 65536, 65537, 1 << 20} {
		wide := wideSlots(n)
		if !wide && n > math.MaxUint16 {
			t.Errorf("wideSlots(%d) = false: a two-byte slot cannot hold %d", n, n)
		}
		if wide && n < 65535 {
			t.Errorf("wideSlots(%d) = true: two bytes hold %d", n, n)
		}
	}
}
