// Command mcpload calls one tool of an MCP server over streamable HTTP
// from several sessions at once and prints the throughput and the
// latency percentiles:
//
//	mcpload -url http://127.0.0.1:8931/mcp -sessions 20 -calls 10000 -tool word_count -args '{"text":"a b c"}'
//
// It sends requests to the URL it is given only; bench/mcpload.sh runs it
// against agent mcp -http on loopback.
//
// It shares the machine's processors with the server it loads, so it
// collects garbage less often than Go's default (-gogc, 800): the MCP
// SDK's client allocates a few hundred kilobytes a call, and at the
// default its collections took CPU from the server under test (on two
// cores, 2,428–2,726 calls/s with workers against 3,025–3,178 at 800,
// p99 21–25 ms against 18–19 ms, four rounds in turn).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", "", "the server's streamable HTTP endpoint")
	sessions := fs.Int("sessions", 20, "concurrent sessions")
	calls := fs.Int("calls", 10000, "calls in all, after one warm-up call per session")
	name := fs.String("tool", "word_count", "the tool")
	argsJSON := fs.String("args", `{"text":"the quick brown fox"}`, "its arguments")
	label := fs.String("label", "", "a label for the output line")
	gogc := fs.Int("gogc", 800, "this program's garbage collector target (debug.SetGCPercent); 0 leaves GOGC's")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *gogc < 0 {
		fmt.Fprintln(stderr, "mcpload: -gogc must be 0 (GOGC's) or above")
		return 2
	}
	if *gogc > 0 {
		debug.SetGCPercent(*gogc)
	}
	if *url == "" || *sessions < 1 || *calls < 1 {
		fmt.Fprintln(stderr, "mcpload: -url, -sessions ≥ 1 and -calls ≥ 1 are required")
		return 2
	}
	var arguments map[string]any
	if err := json.Unmarshal([]byte(*argsJSON), &arguments); err != nil {
		fmt.Fprintf(stderr, "mcpload: -args: %v\n", err)
		return 2
	}
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpload", Version: "1"}, nil)
	ss := make([]*mcp.ClientSession, *sessions)
	for i := range ss {
		s, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: *url}, nil)
		if err != nil {
			fmt.Fprintf(stderr, "mcpload: session %d: %v\n", i, err)
			return 1
		}
		defer s.Close()
		ss[i] = s
	}
	call := func(s *mcp.ClientSession) error {
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: *name, Arguments: arguments})
		if err == nil && res.IsError {
			err = fmt.Errorf("tool error: %v", res.Content)
		}
		return err
	}
	// One warm-up call per session, as a client's first.
	for _, s := range ss {
		if err := call(s); err != nil {
			fmt.Fprintf(stderr, "mcpload: warm-up: %v\n", err)
			return 1
		}
	}
	var next, failed atomic.Int64
	lat := make([][]time.Duration, len(ss))
	var wg sync.WaitGroup
	start := time.Now()
	for i, s := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(*calls) {
				t := time.Now()
				if err := call(s); err != nil {
					failed.Add(1)
					continue
				}
				lat[i] = append(lat[i], time.Since(t))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	all := slices.Concat(lat...)
	slices.Sort(all)
	pct := func(p float64) time.Duration {
		if len(all) == 0 {
			return 0
		}
		return all[min(len(all)-1, int(p*float64(len(all))))]
	}
	fmt.Fprintf(stdout, "%s\tcalls/s %.0f\tp50 %v\tp99 %v\terrors %d\n", *label, float64(len(all))/elapsed.Seconds(),
		pct(0.50).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond), failed.Load())
	return 0
}
