package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolreg/toolreg/internal/schemacase"
)

// derivedProg prints the tools of the test module's good and types
// registries with their schemas ("schemas", by "set/tool"), or checks the
// arguments of each line of a file ("check FILE", lines of
// {"tool":"set/tool","args":…}) and prints "ok" or the error, one line
// each.
const derivedProg = `package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"example.com/tools/good"
	"example.com/tools/types"
	"github.com/toolreg/toolreg/registry"
)

func main() {
	sets := map[string]*registry.Registry{"good": good.Toolbox(), "types": types.Toolbox()}
	if os.Args[1] == "schemas" {
		m := map[string]string{}
		for set, r := range sets {
			for _, e := range r.Tools() {
				m[set+"/"+e.Name] = e.Parameters
			}
		}
		json.NewEncoder(os.Stdout).Encode(m)
		return
	}
	f, err := os.Open(os.Args[2])
	if err != nil {
		panic(err)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var c struct{ Tool, Args string }
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			panic(err)
		}
		set, name, _ := strings.Cut(c.Tool, "/")
		e, _ := sets[set].Lookup(name)
		if _, err := e.Bind(c.Args); err != nil {
			fmt.Println(strings.ReplaceAll(err.Error(), "\n", " "))
		} else {
			fmt.Println("ok")
		}
	}
}
`

// TestGoodDecodersAgreeWithSchemaAtTheirLimits derives arguments from the
// schemas of the test module's good registry (every kind of constraint:
// lengths, a pattern, item counts, a nested object, an enum of integers)
// and of the types registry's recursive tools ($defs and $ref, the
// arguments struct recursive, recursion through a map), and checks that
// their generated decoders accept exactly those the schemas accept, in a
// program built against them. (The types registry's other tools take
// times, whose format a validator does not assert, and durations, whose
// bounds only the description states.) The recursive types are nested a
// few levels here; TestTypesDecoders tries them at the depth limit, which
// the schema cannot state.
func TestGoodDecodersAgreeWithSchemaAtTheirLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program; skipped with -short")
	}
	t.Parallel()
	dir, flags := buildModule(t)
	progDir := filepath.Join(dir, "cmd", "derived")
	if err := os.MkdirAll(progDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(progDir, "main.go"), []byte(derivedProg), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "derived")
	build := exec.Command("go", append(append([]string{"build", "-o", bin}, flags...), "./cmd/derived")...)
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "schemas").Output()
	if err != nil {
		t.Fatal(err)
	}
	var schemas map[string]string
	if err := json.Unmarshal(out, &schemas); err != nil {
		t.Fatal(err)
	}
	type line struct{ Tool, Args string }
	var lines []line
	var cases []schemacase.Case
	for name, schema := range schemas {
		if set, tool, _ := strings.Cut(name, "/"); set == "types" && tool != "outline" && tool != "match" && tool != "menu" {
			delete(schemas, name)
			continue
		}
		cs, err := schemacase.Cases(schema)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, c := range cs {
			lines = append(lines, line{name, c.Args})
			cases = append(cases, c)
		}
	}
	file := filepath.Join(t.TempDir(), "cases.jsonl")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(f)
	for _, l := range lines {
		enc.Encode(l)
	}
	f.Close()
	out, err = exec.Command(bin, "check", file).Output()
	if err != nil {
		t.Fatal(err)
	}
	var results []string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		results = append(results, sc.Text())
	}
	if len(results) != len(cases) {
		t.Fatalf("%d results for %d cases", len(results), len(cases))
	}
	accepted := map[string]int{}
	refused := map[string]int{}
	for i, c := range cases {
		got := results[i] == "ok"
		if got != c.Valid {
			t.Errorf("%s: arguments %.300s: schema accepts: %v, decoder says: %s", lines[i].Tool, c.Args, c.Valid, results[i])
		}
		if c.Valid {
			accepted[lines[i].Tool]++
		} else {
			refused[lines[i].Tool]++
		}
	}
	for name := range schemas {
		if accepted[name] == 0 || refused[name] == 0 {
			t.Errorf("%s: %d cases accepted, %d refused: both sides must be tried", name, accepted[name], refused[name])
		}
	}
}
