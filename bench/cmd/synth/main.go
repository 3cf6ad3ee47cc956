// Synth writes a synthetic tool package of n tools for the lookup,
// start-up and generate-time benchmarks: one toolbox/<id>_tool.go file per
// tool, in toolreg's convention, each with its own args struct of two to
// six fields (strings with lengths, bounded integers, enums, booleans,
// lists, an optional nested struct), and toolbox/all.go listing a value of
// every args type for the reflective schema generators.
//
// Usage:
//
//	synth -n 1000 -dir DIR [-pkg NAME] [-peers MODULEPATH]
//
// writes DIR/toolbox/ and, unless -pkg is empty, DIR/gen.go (package NAME,
// with the go:generate line that runs toolgen). With -peers, it also
// writes DIR/peers/peers.go, which registers every tool with the MCP Go
// SDK (mcp.AddTool) and with fantasy (NewAgentTool), and
// DIR/closures/closures.go, the same tools as a hand-written map of
// closures over encoding/json; MODULEPATH is the import path of DIR.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

var (
	verbs = []string{"get", "list", "find", "create", "update", "delete", "search", "fetch", "check", "count", "send", "read", "write", "convert", "summarize", "translate"}
	nouns = []string{"weather", "files", "issues", "users", "orders", "invoices", "calendar_events", "emails", "repositories", "tickets", "metrics", "documents", "contacts", "flights", "stock_quotes", "recipes"}
)

// name returns the id of tool i: distinct, of varied length, like real
// tool names.
func name(i int) string {
	v := verbs[i%len(verbs)]
	n := nouns[(i/len(verbs))%len(nouns)]
	if k := i / (len(verbs) * len(nouns)); k > 0 {
		return fmt.Sprintf("%s_%s_%d", v, n, k)
	}
	return v + "_" + n
}

func main() {
	log.SetFlags(0)
	n := flag.Int("n", 10, "number of tools")
	dir := flag.String("dir", "", "output `directory`")
	pkg := flag.String("pkg", "", "package `name` of DIR/gen.go; none when empty")
	peers := flag.String("peers", "", "import `path` of DIR; write DIR/peers")
	flag.Parse()
	if *dir == "" || *n < 1 {
		log.Fatal("usage: synth -n N -dir DIR [-pkg NAME] [-peers MODULEPATH]")
	}
	tb := filepath.Join(*dir, "toolbox")
	if err := os.RemoveAll(tb); err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(tb, 0o755); err != nil {
		log.Fatal(err)
	}
	for i := range *n {
		write(filepath.Join(tb, name(i)+"_tool.go"), toolFile(i))
	}
	write(filepath.Join(tb, "all.go"), allFile(*n))
	if *pkg != "" {
		write(filepath.Join(*dir, "gen.go"), []byte(fmt.Sprintf(
			"// Package %s is the registry of a synthetic toolbox of %d tools.\npackage %s\n\n//go:generate go run github.com/toolreg/toolreg/cmd/toolgen\n", *pkg, *n, *pkg)))
	}
	if *peers != "" {
		if err := os.MkdirAll(filepath.Join(*dir, "peers"), 0o755); err != nil {
			log.Fatal(err)
		}
		write(filepath.Join(*dir, "peers", "peers.go"), peersFile(*n, *peers))
		if err := os.MkdirAll(filepath.Join(*dir, "closures"), 0o755); err != nil {
			log.Fatal(err)
		}
		write(filepath.Join(*dir, "closures", "closures.go"), closuresFile(*n, *peers))
	}
}

func write(path string, src []byte) {
	if filepath.Ext(path) == ".go" {
		var err error
		if src, err = format.Source(src); err != nil {
			log.Fatalf("%s: %v", path, err)
		}
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// field is a possible field of an args struct.
type field struct {
	doc, name, typ, json, tag string
}

// fields are the possible fields of an args struct; tool i takes the
// first 2+i%5 of them, rotated by i. In typ, {N} stands for the tool's
// number.
var fields = []field{
	{"What to look for, in a few words.", "Query", "string", "query", "minLength=1,maxLength=200"},
	{"How many results to return, 1 to 50.", "Limit", "int", "limit,omitempty", "minimum=1,maximum=50,default=10"},
	{"Order of the results: relevance (best match first), newest or oldest first.", "Order", "string", "order,omitempty", "enum=relevance,enum=newest,enum=oldest"},
	{"Whether to include archived items.", "Archived", "bool", "archived,omitempty", ""},
	{"Labels that every result must carry.", "Labels", "[]string", "labels,omitempty", "maxItems=10"},
	{"Narrows the results to a time span.", "Span", "*{P}Span{N}", "span,omitempty", ""},
}

// argsType writes the args struct of tool i, and the struct of its span
// if it has one. prefix names the types; with mcpTags, the jsonschema tags
// are descriptions, as the MCP Go SDK reads them, instead of toolreg's
// constraints.
func argsType(b *bytes.Buffer, i int, prefix string, mcpTags bool) {
	fmt.Fprintf(b, "// %[1]sT%[2]dArgs are the arguments of tool %[2]d.\ntype %[1]sT%[2]dArgs struct {\n", prefix, i)
	nested := false
	for k := range 2 + i%5 {
		f := fields[(i+k)%len(fields)]
		nested = nested || f.name == "Span"
		typ := strings.NewReplacer("{N}", strconv.Itoa(i), "{P}", prefix).Replace(f.typ)
		tag := fmt.Sprintf("json:%q", f.json)
		switch {
		case mcpTags:
			tag += fmt.Sprintf(" jsonschema:%q", f.doc)
		case f.tag != "":
			tag += fmt.Sprintf(" jsonschema:%q", f.tag)
		}
		fmt.Fprintf(b, "\t// %s\n\t%s %s `%s`\n", f.doc, f.name, typ, tag)
	}
	fmt.Fprintf(b, "}\n\n")
	if nested {
		from, days := `json:"from" jsonschema:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`, `json:"days,omitempty" jsonschema:"maximum=366"`
		if mcpTags {
			from, days = `json:"from" jsonschema:"First day, as YYYY-MM-DD."`, `json:"days,omitempty" jsonschema:"Number of days."`
		}
		fmt.Fprintf(b, "// %[1]sSpan%[2]d is a span of days.\ntype %[1]sSpan%[2]d struct {\n\t// First day, as YYYY-MM-DD.\n\tFrom string `%[3]s`\n\t// Number of days.\n\tDays uint16 `%[4]s`\n}\n\n", prefix, i, from, days)
	}
}

func toolFile(i int) []byte {
	var b bytes.Buffer
	id := name(i)
	fmt.Fprintf(&b, "package toolbox\n\nimport (\n\t\"context\"\n\t\"fmt\"\n\n\t\"github.com/toolreg/toolreg/tool\"\n)\n\n")
	fmt.Fprintf(&b, "// T%[1]d is synthetic tool number %[1]d.\ntype T%[1]d struct{}\n\n", i)
	argsType(&b, i, "", false)
	fmt.Fprintf(&b, "// Definition describes the tool.\nfunc (T%[1]d) Definition() tool.Definition {\n\treturn tool.Definition{\n\t\tID: %[2]q,\n\t\tDescription: \"Synthetic tool %[1]d: %[2]s. Use it when the user asks to %[2]s.\",\n\t}\n}\n\n", i, id)
	fmt.Fprintf(&b, "// Execute answers with its arguments.\nfunc (T%[1]d) Execute(ctx context.Context, args T%[1]dArgs) (string, error) {\n\treturn fmt.Sprint(args), nil\n}\n", i)
	return b.Bytes()
}

func allFile(n int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "package toolbox\n\n// AllArgs holds a value of the args type of every tool, in tool order,\n// for the reflective schema generators of the start-up benchmark.\nvar AllArgs = []any{\n")
	for i := range n {
		fmt.Fprintf(&b, "\tT%dArgs{},\n", i)
	}
	fmt.Fprintf(&b, "}\n\n// Names holds the id of every tool, in the same order.\nvar Names = []string{\n")
	for i := range n {
		fmt.Fprintf(&b, "\t%q,\n", name(i))
	}
	fmt.Fprintf(&b, "}\n")
	return b.Bytes()
}

func peersFile(n int, path string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `// Package peers registers the synthetic tools with other libraries, for
// the start-up benchmark.
package peers

import (
	"context"

	"charm.land/fantasy"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"%s/toolbox"
)

func mcpHandler[In any](ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{}, nil, nil
}

func fantasyHandler[In any](ctx context.Context, in In, call fantasy.ToolCall) (fantasy.ToolResponse, error) {
	return fantasy.NewTextResponse(""), nil
}

// AddMCP adds every tool to s with mcp.AddTool, which derives and resolves
// each input schema by reflection. Its types are the tools' args types
// with the SDK's tags (descriptions), which it requires.
func AddMCP(s *mcp.Server) {
`, path)
	for i := range n {
		fmt.Fprintf(&b, "\tmcp.AddTool(s, &mcp.Tool{Name: toolbox.Names[%[1]d], Description: \"Synthetic tool.\"}, mcpHandler[MT%[1]dArgs])\n", i)
	}
	fmt.Fprintf(&b, "}\n\n// Fantasy returns every tool made with fantasy.NewAgentTool, which derives\n// each schema by reflection.\nfunc Fantasy() []fantasy.AgentTool {\n\treturn []fantasy.AgentTool{\n")
	for i := range n {
		fmt.Fprintf(&b, "\t\tfantasy.NewAgentTool(toolbox.Names[%[1]d], \"Synthetic tool.\", fantasyHandler[toolbox.T%[1]dArgs]),\n", i)
	}
	fmt.Fprintf(&b, "\t}\n}\n\n")
	for i := range n {
		argsType(&b, i, "M", true)
	}
	return b.Bytes()
}

// closuresFile writes the tools as a hand-written registry would hold
// them: a map from name to a closure that decodes with encoding/json and
// runs the tool, for the compile-time comparison (compiletime.sh).
func closuresFile(n int, path string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `// Package closures is the synthetic toolbox as a hand-written map of
// closures over encoding/json: what the generated registry is compared
// with for compile time.
package closures

import (
	"context"
	"encoding/json"

	"%s/toolbox"
)

// Tools maps each tool's name to its call.
func Tools() map[string]func(context.Context, []byte) (string, error) {
	return map[string]func(context.Context, []byte) (string, error){
`, path)
	for i := range n {
		fmt.Fprintf(&b, "\t\t%[2]q: func(ctx context.Context, data []byte) (string, error) {\n\t\t\tvar a toolbox.T%[1]dArgs\n\t\t\tif err := json.Unmarshal(data, &a); err != nil {\n\t\t\t\treturn \"\", err\n\t\t\t}\n\t\t\treturn toolbox.T%[1]d{}.Execute(ctx, a)\n\t\t},\n", i, name(i))
	}
	fmt.Fprintf(&b, "\t}\n}\n")
	return b.Bytes()
}
