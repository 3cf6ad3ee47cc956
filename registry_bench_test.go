package toolreg

import (
	"testing"
)

// The micro-benchmarks of the generated registry of toolbox/. The
// comparisons with hand-written code and with other libraries live in
// bench/, a module of its own; see BENCHMARKS.md.

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
// decoders, without running the tools (which reach the network).
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
		args := []byte(c.args)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e.Check(args)
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
