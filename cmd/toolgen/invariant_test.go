package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The invariant test generates tool files from a grammar of what users
// write, runs toolgen on all of them at once in one module, and builds the
// module. For every case it knows whether the tool must be generated, left
// out with a warning in its own file, or noted as a near miss.

var (
	invariantCases = flag.Int("invariant.cases", 400, "how many tool files TestInvariant generates")
	invariantSeed  = flag.Uint64("invariant.seed", 1, "the seed of TestInvariant's generator")
	invariantKeep  = flag.String("invariant.keep", "", "copy the generated module to this directory, to keep the cases it finds as golden tests")
)

// outcome is what toolgen must do with a case.
type outcome int

const (
	wantTool outcome = iota // generated
	wantWarn                // left out, with a warning in its file
	wantNote                // not a tool file: a note in it
)

// choice is one production of the grammar: Go text and whether it breaks
// the convention.
type choice struct {
	text string
	bad  bool
}

// subst puts s in place of %[1]s in a production.
func subst(text, s string) string { return strings.ReplaceAll(text, "%[1]s", s) }

// pick chooses a production: one that breaks the convention one time in
// eight, so that most cases have at most one mistake.
func pick(r *rand.Rand, cs []choice) choice {
	var ok, bad []choice
	for _, c := range cs {
		if c.bad {
			bad = append(bad, c)
		} else {
			ok = append(ok, c)
		}
	}
	if len(bad) > 0 && (len(ok) == 0 || r.IntN(8) == 0) {
		return bad[r.IntN(len(bad))]
	}
	return ok[r.IntN(len(ok))]
}

// Field types. %[1]s is the case's type prefix, for the named types a case
// declares (listed in caseDecls).
var fieldTypes = []choice{
	{"string", false}, {"bool", false}, {"int", false}, {"int8", false}, {"uint16", false},
	{"float32", false}, {"float64", false}, {"*string", false}, {"[]string", false},
	{"[]int", false}, {"[][]string", false}, {"*%[1]sNested", false}, {"%[1]sNested", false},
	{"[]%[1]sNested", false}, {"[]*%[1]sNested", false}, {"time.Duration", false},
	{"%[1]sMode", false}, {"*[]float64", false}, {"rune", false}, {"byte", false},
	{"lower%[1]s", true}, {"map[string]int", false}, {"any", false}, {"interface{ M() }", true},
	{"map[%[1]sMode][]string", false}, {"map[int]string", true}, {"json.RawMessage", false},
	{"%[1]sBlob", false}, {"*%[1]sBlob", false},
	{"map[string]*%[1]sNested", false},
	{"chan int", true}, {"func()", true}, {"[]byte", true}, {"complex64", true},
	{"[3]int", true}, {"struct{ A int }", true}, {"%[1]sNode", false}, {"uintptr", true},
	{"*%[1]sNode", false}, {"[]%[1]sNode", false}, {"map[string]%[1]sNode", false}, {"%[1]sPair", false},
	{"%[1]sList", true}, {"**int", true}, {"%[1]sPtr", true}, {"time.Time", false},
	{"*time.Time", false}, {"[]time.Duration", false}, {"*time.Duration", false},
	{"error", true},
}

// caseDecls declares the named types fieldTypes and resultTypes use.
const caseDecls = `
// %[1]sNested is a nested object.
type %[1]sNested struct {
	// Inner is a word.
	Inner string ` + "`json:\"inner\"`" + `
}

// %[1]sBlob is json.RawMessage by another name, an alias: the same type
// (from Go 1.27 an alias of encoding/json/jsontext.Value itself).
type %[1]sBlob = json.RawMessage

// %[1]sMode is a named string.
type %[1]sMode string

type lower%[1]s string

// %[1]sNode is recursive.
type %[1]sNode struct {
	// Kids are nodes.
	Kids []%[1]sNode ` + "`json:\"kids\"`" + `
	// Next is a node, if any.
	Next *%[1]sNode ` + "`json:\"next,omitempty\"`" + `
}

// %[1]sPair is recursive through %[1]sHalf.
type %[1]sPair struct {
	// Half is the other half.
	Half *%[1]sHalf ` + "`json:\"half,omitempty\"`" + `
}

// %[1]sHalf is recursive through %[1]sPair.
type %[1]sHalf struct {
	// Pairs are pairs.
	Pairs map[string]%[1]sPair ` + "`json:\"pairs\"`" + `
}

// %[1]sList is a named slice.
type %[1]sList []string

// %[1]sPtr is a named pointer.
type %[1]sPtr *int

// %[1]sOut is a result.
type %[1]sOut struct {
	// N is a number.
	N int ` + "`json:\"n\"`" + `
	M map[string]any ` + "`json:\"m,omitempty\"`" + `
}

type out%[1]s struct{ N int }

// %[1]sFuncOut cannot be encoded.
type %[1]sFuncOut struct{ F func() }

var (
	_ %[1]sNested
	_ %[1]sMode
	_ lower%[1]s
	_ %[1]sNode
	_ %[1]sPair
	_ %[1]sHalf
	_ %[1]sList
	_ %[1]sPtr
	_ %[1]sOut
	_ out%[1]s
	_ %[1]sFuncOut
)
`

// Tags on a field, given whether the field is a string, an integer, a
// float or a slice. %[1]s is the json name.
func tagChoices(kind string) []choice {
	cs := []choice{
		{"`json:\"%[1]s\"`", false}, {"`json:\"%[1]s,omitempty\"`", false}, {"", false},
		{"`json:\"%[1]s\" jsonschema:\"color=red\"`", true},
		{"`json:\"%[1]s\" jsonschema:\"minimum\"`", true},
		{"`json:\"bad name\"`", true},
		// The forms encoding/json defines: "-," names the key "-", an empty
		// name keeps the Go name, omitzero is omitempty's sibling; string
		// and options it does not know (inline, from other encoders) are
		// warned about.
		{"`json:\"-,\"`", false}, {"`json:\",omitempty\"`", false},
		{"`json:\"%[1]s,omitzero\"`", false}, {"`json:\"%[1]s,omitempty,omitzero\"`", false},
		{"`json:\"%[1]s,inline\"`", true}, {"`json:\",inline\"`", true},
		{"`json:\"%[1]s,\"`", false},
	}
	switch kind {
	case "string":
		cs = append(cs, choice{"`json:\"%[1]s\" jsonschema:\"minLength=1,maxLength=9\"`", false},
			choice{"`json:\"%[1]s\" jsonschema:\"enum=a,enum=b\"`", false},
			choice{"`json:\"%[1]s\" jsonschema:\"pattern=^[a-z]+$\"`", false},
			choice{"`json:\"%[1]s,omitempty\" jsonschema:\"enum=a,enum=b,default=b\"`", false},
			choice{"`json:\"%[1]s\" jsonschema:\"pattern=(\"`", true},
			choice{"`json:\"%[1]s,string\"`", true},
			choice{"`json:\"%[1]s\" jsonschema:\"enum=a,enum=a\"`", true},
			choice{"`json:\"%[1]s\" jsonschema:\"minimum=1\"`", true},
			choice{"`json:\"%[1]s\" jsonschema:\"default=x\"`", true},
			choice{"`json:\"%[1]s\" jsonschema:\"enum=%q,enum=\\\\,\"`", false})
	case "int":
		cs = append(cs, choice{"`json:\"%[1]s\" jsonschema:\"minimum=-3,maximum=100\"`", false},
			choice{"`json:\"%[1]s,omitempty\" jsonschema:\"default=7\"`", false},
			choice{"`json:\"%[1]s\" jsonschema:\"enum=1,enum=2\"`", false},
			choice{"`json:\"%[1]s\" jsonschema:\"minimum=abc\"`", true},
			choice{"`json:\"%[1]s\" jsonschema:\"minimum=5,maximum=1\"`", true},
			choice{"`json:\"%[1]s\" jsonschema:\"minLength=1\"`", true},
			choice{"`json:\"%[1]s\" jsonschema:\"maximum=1e400\"`", true},
			choice{"`json:\"%[1]s,string\"`", false},
			choice{"`json:\"%[1]s,omitempty,string\" jsonschema:\"minimum=1,default=2\"`", false},
			choice{"`json:\"%[1]s,string\" jsonschema:\"enum=1,enum=2\"`", true})
	case "uint":
		cs = append(cs, choice{"`json:\"%[1]s\" jsonschema:\"minimum=1,maximum=200\"`", false},
			choice{"`json:\"%[1]s\" jsonschema:\"minimum=-1\"`", true},
			choice{"`json:\"%[1]s\" jsonschema:\"maximum=70000\"`", true})
	case "float":
		cs = append(cs, choice{"`json:\"%[1]s\" jsonschema:\"minimum=-0.5,maximum=1e3\"`", false},
			choice{"`json:\"%[1]s\" jsonschema:\"maximum=NaN\"`", true},
			choice{"`json:\"%[1]s\" jsonschema:\"minimum=-Inf\"`", true},
			choice{"`json:\"%[1]s\" jsonschema:\"enum=1.5,enum=1.50\"`", true})
	case "duration":
		cs = append(cs, choice{"`json:\"%[1]s\" jsonschema:\"minimum=1s,maximum=90m\"`", false},
			choice{"`json:\"%[1]s,omitempty\" jsonschema:\"default=1m30s\"`", false},
			choice{"`json:\"%[1]s\" jsonschema:\"minimum=5\"`", true},
			choice{"`json:\"%[1]s\" jsonschema:\"enum=1s\"`", true},
			choice{"`json:\"%[1]s\" jsonschema:\"minimum=1h,maximum=1s\"`", true})
	case "slice":
		cs = append(cs, choice{"`json:\"%[1]s\" jsonschema:\"minItems=1,maxItems=3\"`", false},
			choice{"`json:\"%[1]s\" jsonschema:\"minItems=-1\"`", true})
	}
	return cs
}

func tagKind(typ string) string {
	switch {
	case typ == "string" || strings.HasSuffix(typ, "Mode"):
		return "string"
	case typ == "int" || typ == "int8" || typ == "rune":
		return "int"
	case typ == "uint16" || typ == "byte":
		return "uint"
	case strings.HasPrefix(typ, "float"):
		return "float"
	case typ == "[]string" || typ == "[]int":
		return "slice"
	case typ == "time.Duration":
		return "duration"
	}
	return "other"
}

var resultTypes = []choice{
	{"string", false}, {"int", false}, {"[]string", false}, {"map[string]any", false},
	{"any", false}, {"[]byte", false}, {"*%[1]sOut", false}, {"%[1]sOut", false},
	{"[2]int", false}, {"map[int]bool", false}, {"float64", false}, {"[]%[1]sOut", false},
	{"chan int", true}, {"func()", true}, {"error", true}, {"out%[1]s", true},
	{"struct{ N int }", true}, {"complex128", true}, {"map[[2]int]string", true},
	{"%[1]sFuncOut", true}, {"interface{ M() }", true}, {"[]out%[1]s", true},
	{"%[1]sNode", false}, {"*%[1]sPair", false},
}

// Build constraints of a tool file. The architecture's is linux's alone:
// a file for one architecture on every system would make each system's
// arm64 a configuration of its own, and each configuration loads the
// standard library's export data for its platform, tens of seconds of
// compiling with an empty build cache; one system's shows the split.
var buildLines = []choice{
	{"", false}, {"", false}, {"", false}, {"//go:build go1.21\n\n", false},
	{"//go:build !plan9\n\n", false}, {"//go:build linux\n\n", true},
	{"//go:build !windows\n\n", true}, {"//go:build ignore\n\n", true},
	{"//go:build cgo\n\n", true}, {"//go:build darwin || linux || windows\n\n", false},
	{"//go:build linux && amd64\n\n", true},
}

// invCase is one generated tool file.
type invCase struct {
	file string // under toolbox/
	id   string
	want outcome
	src  string
}

// genCase writes case i.
func genCase(r *rand.Rand, i int) invCase {
	id := fmt.Sprintf("c%d", i)
	T := fmt.Sprintf("C%d", i)
	c := invCase{file: id + "_tool.go", id: id, want: wantTool}
	bad := false
	var b strings.Builder
	cons := pick(r, buildLines)
	bad = bad || cons.bad
	b.WriteString(cons.text)
	b.WriteString("package toolbox\n\nimport (\n\t\"context\"\n\t\"encoding/json\"\n\t\"time\"\n\n\t\"github.com/toolreg/toolreg/tool\"\n)\n\nvar (\n\t_ time.Duration\n\t_ context.Context\n\t_ json.RawMessage\n)\n")
	b.WriteString(fmt.Sprintf(caseDecls, T))

	// The args struct.
	fmt.Fprintf(&b, "\n// %sArgs are the arguments.\ntype %sArgs struct {\n", T, T)
	names := map[string]bool{}
	for j := range r.IntN(4) {
		ft := pick(r, fieldTypes)
		typ := subst(ft.text, T)
		name := fmt.Sprintf("F%d", j)
		jsonName := fmt.Sprintf("f%d", j)
		if r.IntN(8) == 0 {
			jsonName = "f0" // maybe a duplicate
		}
		tag := pick(r, tagChoices(tagKind(typ)))
		tagText := tag.text
		tagText = subst(tagText, jsonName)
		required := !strings.Contains(tagText, "omitempty") && !strings.HasPrefix(typ, "*")
		_ = required
		skipped := false
		switch r.IntN(10) {
		case 0: // unexported: not an argument, whatever its type
			name = fmt.Sprintf("f%d", j)
			skipped = true
		case 1: // json:"-"
			tagText = "`json:\"-\"`"
			skipped = true
		}
		if !skipped {
			effName := jsonName
			switch {
			case tagText == "", strings.HasPrefix(tagText, "`json:\","):
				effName = name
			case strings.HasPrefix(tagText, "`json:\"-,"):
				effName = "-"
			case strings.Contains(tagText, `json:"bad name"`):
				effName = "bad name"
			}
			if names[effName] {
				bad = true
			}
			names[effName] = true
			bad = bad || ft.bad || tag.bad
		}
		doc := r.IntN(16) != 0
		if doc {
			fmt.Fprintf(&b, "\t// %s is a field.\n", name)
		} else if !skipped {
			bad = true
		}
		fmt.Fprintf(&b, "\t%s %s %s\n", name, typ, tagText)
	}
	switch r.IntN(20) {
	case 0: // flattened, as encoding/json reads it
		b.WriteString("\t// Embedded adds the field inner.\n\t" + T + "Nested\n")
		bad = bad || names["inner"]
	case 1: // an embedded pointer is refused
		b.WriteString("\t// Embedded through a pointer.\n\t*" + T + "Nested\n")
		bad = true
	case 2: // with a json name, a field like any other
		b.WriteString("\t// Embedded with a name.\n\t" + T + "Nested `json:\"nested,omitempty\"`\n")
		bad = bad || names["nested"]
	}
	b.WriteString("}\n")

	// The tool type, its receivers and its method set.
	res := pick(r, resultTypes)
	resT := subst(res.text, T)
	bad = bad || res.bad
	recvKind := r.IntN(4)
	defRecv, exeRecv := T, T
	switch recvKind {
	case 1:
		defRecv, exeRecv = "*"+T, "*"+T
	case 2:
		exeRecv = "*" + T
	}
	typeDecl := fmt.Sprintf("\n// %s is a tool.\ntype %s struct{ n int }\n", T, T)
	methodsOn := T
	switch r.IntN(16) {
	case 0: // methods promoted from an embedded value: fine
		typeDecl = fmt.Sprintf("\n// %s is a tool.\ntype %s struct{ impl%s }\n\ntype impl%s struct{}\n", T, T, T, T)
		methodsOn = "impl" + T
		defRecv, exeRecv = methodsOn, methodsOn
	case 1: // through an embedded pointer: nil in the zero value
		typeDecl = fmt.Sprintf("\n// %s is a tool.\ntype %s struct{ *impl%s }\n\ntype impl%s struct{}\n", T, T, T, T)
		methodsOn = "impl" + T
		defRecv, exeRecv = "*"+methodsOn, "*"+methodsOn
		bad = true
	}
	b.WriteString(typeDecl)
	_ = methodsOn

	// Definition.
	def := fmt.Sprintf(`ID: %q, Description: "Does %s."`, id, id)
	switch r.IntN(28) {
	case 0:
		def = fmt.Sprintf(`ID: %q, Description: ""`, id)
		bad = true
	case 1:
		def = fmt.Sprintf(`ID: %q, Name: "bad name", Description: "x"`, id)
		bad = true
	case 2:
		def = fmt.Sprintf(`ID: "other%d", Description: "x"`, i)
		bad = true
	case 3:
		def = fmt.Sprintf(`ID: %q, Name: "anchor", Description: "x"`, id)
		bad = true
	case 4:
		def = fmt.Sprintf(`ID: %q, Description: "x", Timeout: -time.Second`, id)
		bad = true
	case 5:
		def = fmt.Sprintf(`ID: %q, Description: "x", Timeout: 2 * time.Second, Capabilities: tool.Network | tool.Env`, id)
	case 6:
		def = fmt.Sprintf(`ID: %q, Name: "%s_name", Description: "x"`, id, id)
	case 7:
		def = fmt.Sprintf(`ID: %q, Description: "x", Capabilities: 1 << 40`, id)
		bad = true
	}
	method := r.IntN(24)
	if method != 0 {
		fmt.Fprintf(&b, "\n// Definition describes it.\nfunc (%s) Definition() tool.Definition {\n\treturn tool.Definition{%s}\n}\n", defRecv, def)
	} else {
		bad = true
	}
	switch method {
	case 1:
		fmt.Fprintf(&b, "\n// Execute runs it.\nfunc (%s) Execute(ctx context.Context, args *%sArgs) (%s, error) {\n\tvar r %s\n\treturn r, nil\n}\n", exeRecv, T, resT, resT)
		bad = true
	case 2:
		fmt.Fprintf(&b, "\n// Execute runs it.\nfunc (%s) Execute(args %sArgs) %s {\n\tvar r %s\n\treturn r\n}\n", exeRecv, T, resT, resT)
		bad = true
	case 3: // no Execute
		b.WriteString("\nvar _ context.Context\n")
		bad = true
	default:
		fmt.Fprintf(&b, "\n// Execute runs it.\nfunc (%s) Execute(ctx context.Context, args %sArgs) (%s, error) {\n\tvar r %s\n\treturn r, nil\n}\n", exeRecv, T, resT, resT)
	}
	if method == 0 {
		b.WriteString("\nvar _ tool.Definition\n")
	}
	if r.IntN(10) == 0 {
		fmt.Fprintf(&b, "\n// Help is another method.\nfunc (%s) Help() string { return \"\" }\n", T)
	}
	c.src = b.String()
	if bad {
		c.want = wantWarn
	}
	// A near miss: a complete tool in a file of another name.
	if !bad && r.IntN(15) == 0 {
		c.file = []string{id + ".go", id + "_tools.go", id + "-tool.go"}[r.IntN(3)]
		c.want = wantNote
	}
	return c
}

const anchorTool = `package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Anchor is a tool whose id other cases try to take as their name.
type Anchor struct{}

// AnchorArgs are empty.
type AnchorArgs struct{}

// Definition describes anchor.
func (Anchor) Definition() tool.Definition {
	return tool.Definition{ID: "anchor", Description: "Holds its name."}
}

// Execute does nothing.
func (Anchor) Execute(ctx context.Context, args AnchorArgs) (string, error) { return "", nil }
`

// warningRE is the shape of every line toolgen prints about a tool
// package: a position in a file of the tool package, then one line.
var warningRE = regexp.MustCompile(`^toolbox/[^/:]+\.go:\d+:\d+: [^\n]+$`)

// TestInvariant checks the invariant over generated tool files: toolgen
// never panics and never fails on a tool package that compiles; every
// warning is a path:line:col in a tool-package file; each case comes out
// as the grammar says (generated, or left out with a warning in its own
// file, or noted); and the module builds with the generated registry.
func TestInvariant(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module of several hundred tools; skipped with -short")
	}
	if raceEnabled {
		t.Skip("nine times slower under the race detector (38 s against 4); .ci/run runs it without: go test -run '^TestInvariant$' ./cmd/toolgen")
	}
	t.Parallel()
	dir, flags := buildModule(t)
	inv := filepath.Join(dir, "inv")
	box := filepath.Join(inv, "toolbox")
	if err := os.MkdirAll(box, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(inv, "gen.go"), "// Package inv holds the registry of generated cases.\npackage inv\n")
	write(filepath.Join(box, "anchor_tool.go"), anchorTool)
	r := rand.New(rand.NewPCG(*invariantSeed, 13))
	var cases []invCase
	for i := range *invariantCases {
		c := genCase(r, i)
		cases = append(cases, c)
		write(filepath.Join(box, c.file), c.src)
	}
	if *invariantKeep != "" {
		t.Cleanup(func() {
			if err := os.CopyFS(*invariantKeep, os.DirFS(inv)); err != nil {
				t.Errorf("keep: %v", err)
			}
		})
	}

	var res *result
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("toolgen panicked: %v", p)
			}
		}()
		var err error
		res, err = generate(inv, "toolbox", "zz_registry_gen.go", nil)
		if err != nil {
			t.Fatalf("toolgen failed on a tool package that compiles: %v", err)
		}
	}()
	byFile := map[string][]diagnostic{}
	for _, w := range res.Warnings {
		if !warningRE.MatchString(w.String()) {
			t.Errorf("warning not of the form toolbox/file.go:line:col: message:\n%s", w)
		}
		if w.Lint {
			// The grammar's descriptions are placeholders; the description
			// lint has its own corpus (toolcheck/testdata/src/lint), and it
			// leaves no tool out.
			continue
		}
		f := filepath.Base(w.Pos.Filename)
		byFile[f] = append(byFile[f], w)
	}
	generated := map[string]bool{}
	for _, tl := range res.Tools {
		generated[tl.ID] = true
	}
	if !generated["anchor"] {
		t.Errorf("the anchor tool was not generated; its warnings: %v", byFile["anchor_tool.go"])
	}
	counts := map[outcome]int{}
	for _, c := range cases {
		counts[c.want]++
		ws := byFile[c.file]
		hasWarn := slices.ContainsFunc(ws, func(d diagnostic) bool { return !d.Note })
		hasNote := slices.ContainsFunc(ws, func(d diagnostic) bool { return d.Note })
		switch c.want {
		case wantTool:
			if !generated[c.id] || hasWarn {
				t.Errorf("%s: want the tool generated without warnings; generated %v, warnings %v", c.file, generated[c.id], ws)
			}
		case wantWarn:
			if generated[c.id] || !hasWarn {
				t.Errorf("%s: want the tool left out with a warning in its file; generated %v, warnings %v", c.file, generated[c.id], ws)
			}
		case wantNote:
			if generated[c.id] || !hasNote || hasWarn {
				t.Errorf("%s: want a note and no tool; generated %v, warnings %v", c.file, generated[c.id], ws)
			}
		}
	}
	t.Logf("%d cases: %d generated, %d left out with a warning, %d near misses noted",
		len(cases), counts[wantTool], counts[wantWarn], counts[wantNote])
	if counts[wantTool] < len(cases)/10 || counts[wantWarn] < len(cases)/10 {
		t.Errorf("the grammar is lopsided: %v", counts)
	}

	if err := os.WriteFile(filepath.Join(inv, "zz_registry_gen.go"), res.Source, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", append(append([]string{"build"}, flags...), "./inv/...")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the module does not build after toolgen: %v\n%s", err, out)
	}
}
