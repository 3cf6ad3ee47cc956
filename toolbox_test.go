package toolreg

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// The tests and micro-benchmarks of this repository's generated registry
// that need its real tools. The runtime's own tests are in package
// registry; the comparisons with hand-written code and with other
// libraries live in bench/, a module of its own; see BENCHMARKS.md.

func TestLookupDoesNotAllocate(t *testing.T) {
	reg := Toolbox()
	names := reg.Names()
	if len(names) == 0 {
		t.Fatal("the toolbox has no tools")
	}
	allocs := testing.AllocsPerRun(100, func() {
		for _, n := range names {
			if _, ok := reg.Lookup(n); !ok {
				panic("lookup failed: " + n)
			}
		}
		reg.Lookup("no such tool")
	})
	if allocs != 0 {
		t.Errorf("Lookup allocates %v times per run, want 0", allocs)
	}
}

// TestRepair checks that arguments a model sent in a known wrong shape (the
// whole object as a JSON string) are repaired once and run, and that other
// bad arguments are not.
func TestRepair(t *testing.T) {
	var logs bytes.Buffer
	reg := Toolbox().WithLogger(slog.New(slog.NewTextHandler(&logs, nil)))
	res := reg.Call(context.Background(), "word_count", `"{\"text\":\"a b\"}"`)
	if res.Failed() || !strings.Contains(res.Text, `"words":2`) {
		t.Errorf("arguments sent as a string: %q (%v), want them repaired and counted", res.Text, res.Err)
	}
	if !strings.Contains(logs.String(), `msg="tool arguments repaired" tool=word_count`) {
		t.Errorf("the repair was not logged:\n%s", logs.String())
	}
	res = reg.Call(context.Background(), "word_count", `"{\"txt\":\"a b\"}"`)
	if want := `Error: word_count: bad arguments: expected object, got string "{\"txt\":\"a b\"}"`; res.Text != want {
		t.Errorf("unrepairable arguments: %q, want %q", res.Text, want)
	}
}

// BenchmarkLookup looks up each tool of the toolbox in turn.
func BenchmarkLookup(b *testing.B) {
	reg := Toolbox()
	names := reg.Names()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, ok := reg.Lookup(names[i]); !ok {
			b.Fatal("not found")
		}
		if i++; i == len(names) {
			i = 0
		}
	}
}

// BenchmarkCheck decodes and validates arguments with the generated
// decoders, binding them without running the tools (which reach the
// network).
func BenchmarkCheck(b *testing.B) {
	reg := Toolbox()
	for _, c := range []struct{ name, tool, args string }{
		{"weather", "weather", `{"city":"Berlin","days":3,"units":"celsius"}`},
		{"weather-missing-city", "weather", `{"days":3,"units":"celsius"}`},
		{"web_search", "web_search", `{"query":"go 1.26 release notes","max_results":5}`},
		{"calculator", "calculator", `{"expression":"2*(3+4)^2"}`},
	} {
		e, ok := reg.Lookup(c.tool)
		if !ok {
			b.Fatalf("no tool %q", c.tool)
		}
		args := c.args
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e.Bind(args)
			}
		})
	}
}

// BenchmarkToolbox is the start-up cost of the registry and the spec table
// the model is sent.
func BenchmarkToolbox(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if len(Toolbox().Specs()) == 0 {
			b.Fatal("no tools")
		}
	}
}
