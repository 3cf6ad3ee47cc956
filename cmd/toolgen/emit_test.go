package main

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/internal/toolcheck"
)

// TestStringEnum checks that the enum values a decoder accepts are those
// that also meet the lengths (in characters) and the pattern, each at,
// below and past its bound.
func TestStringEnum(t *testing.T) {
	c := func(minLen, maxLen int, pattern string, enum ...string) constraints {
		cc := toolcheck.NoConstraints()
		cc.MinLength, cc.MaxLength, cc.Pattern, cc.Enum = minLen, maxLen, pattern, enum
		return cc
	}
	for _, tc := range []struct {
		c    constraints
		want []string
	}{
		{c(-1, -1, "", `"a"`, `"bb"`), []string{`"a"`, `"bb"`}},
		{c(2, -1, "", `"a"`, `"bb"`, `"éé"`), []string{`"bb"`, `"éé"`}},
		{c(-1, 2, "", `"bb"`, `"ccc"`, `"éé"`, `"ééé"`), []string{`"bb"`, `"éé"`}},
		{c(2, 2, "", `"a"`, `"bb"`, `"ccc"`), []string{`"bb"`}},
		{c(0, 0, "", `""`, `"a"`), []string{`""`}},
		{c(-1, -1, "^[a-z]+$", `"ab"`, `"aB"`, `""`), []string{`"ab"`}},
		{c(-1, -1, "", `"\u003c"`, `"tab\t"`), []string{`"<"`, `"tab\t"`}},
		{c(5, -1, "", `"a"`), nil},
	} {
		if diff := cmp.Diff(tc.want, stringEnum(tc.c)); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tc.c, diff)
		}
	}
}

// TestNumberEnum checks that the enum values a decoder accepts are those
// within the minimum and maximum, exactly: a bound of 2^53+1 is not 2^53.
func TestNumberEnum(t *testing.T) {
	c := func(lo, hi string, enum ...string) constraints {
		cc := toolcheck.NoConstraints()
		cc.Minimum, cc.Maximum, cc.Enum = lo, hi, enum
		return cc
	}
	for _, tc := range []struct {
		c    constraints
		want []string
	}{
		{c("", "", "1", "2"), []string{"1", "2"}},
		{c("2", "", "1", "2", "3"), []string{"2", "3"}},
		{c("", "2", "1", "2", "3"), []string{"1", "2"}},
		{c("2", "2", "1", "2", "3"), []string{"2"}},
		{c("0.5", "1.5", "0.25", "0.5", "1.5", "2"), []string{"0.5", "1.5"}},
		{c("9007199254740993", "", "9007199254740992", "9007199254740993"), []string{"9007199254740993"}},
		{c("4", "", "1"), nil},
	} {
		if diff := cmp.Diff(tc.want, numberEnum(tc.c)); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tc.c, diff)
		}
	}
}

// TestBounds checks the Go code of each number bound, given or left out.
func TestBounds(t *testing.T) {
	c := func(lo, hi string) constraints {
		cc := toolcheck.NoConstraints()
		cc.Minimum, cc.Maximum = lo, hi
		return cc
	}
	render := func(code jen.Code) string { return fmt.Sprintf("%#v", code) }
	for _, tc := range []struct {
		k      toolcheck.Kind
		c      constraints
		lo, hi string
	}{
		{kInt, c("", ""), "math.MinInt64", "math.MaxInt64"},
		{kInt, c("-3", "7"), "-3", "7"},
		{kUint, c("", ""), "0", "math.MaxUint64"},
		{kUint, c("1", ""), "1", "math.MaxUint64"},
		{kFloat, c("", ""), "math.Inf(-1)", "math.Inf(1)"},
		{kFloat, c("", "0.5"), "math.Inf(-1)", "0.5"},
	} {
		lo, hi := bounds(tc.k, tc.c)
		if got := [2]string{render(lo), render(hi)}; got != [2]string{tc.lo, tc.hi} {
			t.Errorf("bounds(%d, %q, %q) = %q, want %q, %q", tc.k, tc.c.Minimum, tc.c.Maximum, got, tc.lo, tc.hi)
		}
	}
}

// TestEmitNoTools checks the registry of a toolbox without tools: a file
// with an empty table and no empty declarations, which gofmt and go vet
// would leave alone.
func TestEmitNoTools(t *testing.T) {
	src, err := emit("example.com/m", "m", &toolPackage{Path: "example.com/m/toolbox"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "zz_registry_gen.go", src, 0); err != nil {
		t.Fatalf("the file does not parse: %v\n%s", err, src)
	}
	for _, empty := range []string{"var ()", "var (\n)"} {
		if strings.Contains(string(src), empty) {
			t.Errorf("the file has an empty declaration %q:\n%s", empty, src)
		}
	}
	if !strings.Contains(string(src), "var genEntries = [...]registry.Entry{}") {
		t.Errorf("the file has no empty table:\n%s", src)
	}
}

// TestEmitByteOrderMark writes a registry whose default, enum and schema
// hold a byte-order mark, which Go source may hold only at its start: the
// file must still format and parse, with the mark escaped. toolcheck
// leaves such a tool out, so the emitter meets it only through a bug.
func TestEmitByteOrderMark(t *testing.T) {
	c := toolcheck.NoConstraints()
	c.Default = "\"\ufeffb\""
	c.Enum = []string{"\"a\"", "\"\ufeffb\""}
	args := &typ{Kind: kStruct, Path: "example.com/m/toolbox", Name: "BOMArgs", Fields: []*toolcheck.Field{{
		GoName: "W", JSONName: "w", Doc: "W is a word \ufeff with a mark.", Type: &typ{Kind: kString, Name: "string", Basic: "string"}, C: c,
	}}}
	tp := &toolPackage{Path: "example.com/m/toolbox", Tools: []*toolInfo{{
		File: "toolbox/bom_tool.go", TypeName: "BOM", ID: "bom", Name: "bom", Desc: "Has a mark \ufeff.", Timeout: 30e9, Args: args,
	}}}
	src, err := emit("example.com/m", "m", tp)
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsRune(string(src), '\ufeff') {
		t.Errorf("the generated file holds a raw byte-order mark")
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "zz_registry_gen.go", src, 0); err != nil {
		t.Errorf("the generated file does not parse: %v", err)
	}
	if !strings.Contains(string(src), `v.W = "\ufeffb"`) {
		t.Errorf("the default is not written with the mark escaped:\n%s", src)
	}
}
