//go:build synth

// The lookup and start-up benchmarks run over synthetic toolboxes of 10,
// 100 and 1,000 tools that run.sh writes into synth/ (go run ./cmd/synth,
// then go generate), hence the build tag: go test -tags synth.

package bench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	invopop "github.com/invopop/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	openaischema "github.com/sashabaranov/go-openai/jsonschema"

	"github.com/toolreg/toolreg/bench/synth/n10"
	n10peers "github.com/toolreg/toolreg/bench/synth/n10/peers"
	n10box "github.com/toolreg/toolreg/bench/synth/n10/toolbox"
	"github.com/toolreg/toolreg/bench/synth/n100"
	n100peers "github.com/toolreg/toolreg/bench/synth/n100/peers"
	n100box "github.com/toolreg/toolreg/bench/synth/n100/toolbox"
	"github.com/toolreg/toolreg/bench/synth/n1000"
	n1000peers "github.com/toolreg/toolreg/bench/synth/n1000/peers"
	n1000box "github.com/toolreg/toolreg/bench/synth/n1000/toolbox"
	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/toolmcp"
)

type synthBox struct {
	n       int
	toolbox func() *registry.Registry
	args    []any
	names   []string
	addMCP  func(*mcp.Server)
	fantasy func() int
}

var boxes = []synthBox{
	{10, n10.Toolbox, n10box.AllArgs, n10box.Names, n10peers.AddMCP, func() int { return len(n10peers.Fantasy()) }},
	{100, n100.Toolbox, n100box.AllArgs, n100box.Names, n100peers.AddMCP, func() int { return len(n100peers.Fantasy()) }},
	{1000, n1000.Toolbox, n1000box.AllArgs, n1000box.Names, n1000peers.AddMCP, func() int { return len(n1000peers.Fantasy()) }},
}

// BenchmarkLookup looks up tools by name in random order (the same
// sequence of 4,096 draws for every size, so that no size gets a pattern
// the branch predictor can learn); ns/op is the time of one lookup.
func BenchmarkLookup(b *testing.B) {
	for _, box := range boxes {
		reg := box.toolbox()
		for _, name := range box.names {
			if _, ok := reg.Lookup(name); !ok {
				b.Fatalf("no tool %q", name)
			}
		}
		r := rand.New(rand.NewPCG(1, 2))
		seq := make([]string, 4096)
		for i := range seq {
			seq[i] = box.names[r.IntN(len(box.names))]
		}
		b.Run(fmt.Sprintf("tools=%d", box.n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				reg.Lookup(seq[i])
				i = (i + 1) & (len(seq) - 1)
			}
		})
		b.Run(fmt.Sprintf("tools=%d/miss", box.n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				reg.Lookup("no_such_tool")
			}
		})
	}
}

// BenchmarkStartup measures what a process pays before it can send its
// tools to the model: toolreg's static table (Toolbox and Specs, the table
// the model is sent) against reflective schema generation.
func BenchmarkStartup(b *testing.B) {
	for _, box := range boxes {
		b.Run(fmt.Sprintf("toolreg/tools=%d", box.n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				reg := box.toolbox()
				if len(reg.Specs()) != box.n {
					b.Fatal("wrong table")
				}
			}
		})
		b.Run(fmt.Sprintf("go-openai/tools=%d", box.n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, a := range box.args {
					if _, err := openaischema.GenerateSchemaForType(a); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(fmt.Sprintf("invopop/tools=%d", box.n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, a := range box.args {
					r := &invopop.Reflector{DoNotReference: true}
					if s := r.ReflectFromType(reflect.TypeOf(a)); s == nil {
						b.Fatal("no schema")
					}
				}
			}
		})
		b.Run(fmt.Sprintf("fantasy/tools=%d", box.n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if box.fantasy() != box.n {
					b.Fatal("wrong count")
				}
			}
		})
		b.Run(fmt.Sprintf("mcp-addtool/tools=%d", box.n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "v0.0.0"}, nil)
				box.addMCP(s)
			}
		})
	}
}

// TestSynthSchemas checks that the reflective generators see the same
// properties as toolgen, so that the start-up benchmark compares equal
// work.
func TestSynthSchemas(t *testing.T) {
	box := boxes[0]
	reg := box.toolbox()
	for i, a := range box.args {
		e, ok := reg.Lookup(box.names[i])
		if !ok {
			t.Fatalf("no tool %q", box.names[i])
		}
		var want struct{ Properties map[string]any }
		if err := json.Unmarshal([]byte(e.Parameters), &want); err != nil {
			t.Fatal(err)
		}
		s, err := openaischema.GenerateSchemaForType(a)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Properties) != len(want.Properties) {
			t.Errorf("%s: go-openai finds %d properties, toolgen %d", box.names[i], len(s.Properties), len(want.Properties))
		}
	}
	box.addMCP(mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "v0.0.0"}, nil))
	if box.fantasy() != box.n {
		t.Error("fantasy: wrong number of tools")
	}
}

// BenchmarkMCPStart measures what `agent mcp` does per tool before it
// serves: the registry (Toolbox, whose New checks every entry) and
// toolmcp.NewServer, which describes each tool to the MCP SDK
// (Server.AddTool). The per-tool work is the growth from 10 to 1,000
// tools.
func BenchmarkMCPStart(b *testing.B) {
	for _, box := range boxes {
		b.Run(fmt.Sprintf("registry/tools=%d", box.n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if reg := box.toolbox(); len(reg.Names()) != box.n {
					b.Fatal("wrong table")
				}
			}
		})
		b.Run(fmt.Sprintf("newserver/tools=%d", box.n), func(b *testing.B) {
			reg := box.toolbox()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := toolmcp.NewServer(reg, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
