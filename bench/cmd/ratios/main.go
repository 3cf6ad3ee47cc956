// Ratios prints, as a Markdown table, the median and the minimum time of
// each benchmark of a go test -bench output whose name has the given
// prefix, with its ratio to a baseline benchmark of the same file: the
// figures of BENCHMARKS.md. Ratios are of medians, and of minimums, which
// noise on a shared machine disturbs least.
//
// Usage:
//
//	ratios -prefix Dispatch/ -base Dispatch/direct FILE
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
)

type stats struct {
	ns, bytes, allocs []float64
}

func main() {
	log.SetFlags(0)
	prefix := flag.String("prefix", "", "only benchmarks whose name (without Benchmark) starts with `P`")
	base := flag.String("base", "", "the baseline benchmark `name`, without Benchmark; none when empty")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: ratios [-prefix P] [-base NAME] FILE")
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	var order []string
	all := map[string]*stats{}
	r := benchfmt.NewReader(f, flag.Arg(0))
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		name := string(res.Name.Full())
		if i := strings.LastIndexByte(name, '-'); i > 0 && !strings.Contains(name[i:], "/") {
			name = name[:i] // the GOMAXPROCS suffix
		}
		if !strings.HasPrefix(name, *prefix) {
			continue
		}
		s := all[name]
		if s == nil {
			s = &stats{}
			all[name] = s
			order = append(order, name)
		}
		for _, v := range res.Values {
			switch v.Unit {
			case "sec/op", "ns/op":
				ns := v.Value
				if v.Unit == "sec/op" {
					ns *= 1e9
				}
				s.ns = append(s.ns, ns)
			case "B/op":
				s.bytes = append(s.bytes, v.Value)
			case "allocs/op":
				s.allocs = append(s.allocs, v.Value)
			}
		}
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	b := all[*base]
	if *base != "" && (b == nil || len(b.ns) == 0) {
		log.Fatalf("no baseline %q in %s", *base, flag.Arg(0))
	}
	fmt.Printf("| benchmark | runs | median | min | B/op | allocs/op |")
	if b != nil {
		fmt.Printf(" median ÷ %s | min ÷ %s |", *base, *base)
	}
	fmt.Println()
	fmt.Printf("|---|---:|---:|---:|---:|---:|")
	if b != nil {
		fmt.Printf("---:|---:|")
	}
	fmt.Println()
	for _, name := range order {
		s := all[name]
		if len(s.ns) == 0 {
			continue
		}
		fmt.Printf("| %s | %d | %s | %s | %.0f | %.0f |", name, len(s.ns), dur(median(s.ns)), dur(slices.Min(s.ns)), median(s.bytes), median(s.allocs))
		if b != nil {
			fmt.Printf(" %.2f× | %.2f× |", median(s.ns)/median(b.ns), slices.Min(s.ns)/slices.Min(b.ns))
		}
		fmt.Println()
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// dur formats nanoseconds.
func dur(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	default:
		return fmt.Sprintf("%.1f ns", ns)
	}
}
