// Command firstcall measures what the first tool call to a freshly started
// MCP server costs beside a warm one. Each round starts the server, polls
// its readiness URL until it answers 200, opens one session over
// streamable HTTP, and times the session's first tools/call and then
// -warm further calls of the same tool; the server is then ended. It
// prints, per server, the median first call, the median warm call (the
// median of every round's median) and their ratio. With -after, the first
// call waits that long after the session opens, as a client's does while
// its model reads the tool list, and a last call, after the warm ones,
// waits as long: what a call after that idleness costs a server whose
// code has run, as against what a first call costs. Servers are given as
// for firstanswer, interleaved round by round:
//
//	firstcall -n 10 -- ./agent mcp -http 127.0.0.1:18000 :: http://127.0.0.1:18000 \
//	                -- ./agent mcp -isolate none -http 127.0.0.1:18001 :: http://127.0.0.1:18001
//
// The URL is the server's base: readiness is its /readyz and MCP its /mcp.
// It sends requests to the URLs it is given only.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/toolreg/toolreg/bench/internal/servergroups"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type server struct {
	argv  []string
	base  string
	first []time.Duration
	warm  []time.Duration
	idle  []time.Duration // the calls after -after, once warm
}

func main() {
	n := flag.Int("n", 10, "rounds")
	warm := flag.Int("warm", 50, "warm calls a round")
	tool := flag.String("tool", "word_count", "the tool")
	text := flag.String("text", "the quick brown fox", "its text argument")
	after := flag.Duration("after", 0, "how long the first call waits after the session opens")
	flag.Parse()
	groups, err := servergroups.Parse(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "firstcall:", err)
		os.Exit(2)
	}
	servers := make([]*server, len(groups))
	for i, g := range groups {
		servers[i] = &server{argv: g.Argv, base: strings.TrimSuffix(g.URL, "/")}
	}
	for range *n {
		for _, s := range servers {
			first, warmMedian, idle, err := round(s, *warm, *after, *tool, map[string]any{"text": *text})
			if err != nil {
				fmt.Fprintf(os.Stderr, "firstcall: %s: %v\n", strings.Join(s.argv, " "), err)
				os.Exit(1)
			}
			s.first = append(s.first, first)
			s.warm = append(s.warm, warmMedian)
			if *after > 0 {
				s.idle = append(s.idle, idle)
			}
		}
	}
	for _, s := range servers {
		f, w := median(s.first), median(s.warm)
		fmt.Printf("%s\tfirst call median %.2f ms (%.2f–%.2f)\twarm call median %.2f ms\tfirst/warm %.2f×",
			strings.Join(s.argv, " "), ms(f), ms(slices.Min(s.first)), ms(slices.Max(s.first)), ms(w), float64(f)/float64(w))
		if len(s.idle) > 0 {
			i := median(s.idle)
			fmt.Printf("\ta warm server's call after %s median %.2f ms (%.2f–%.2f)\tthat/warm %.2f×", *after,
				ms(i), ms(slices.Min(s.idle)), ms(slices.Max(s.idle)), float64(i)/float64(w))
		}
		fmt.Println()
	}
}

// round starts s, waits for its readiness, and times the first call, made
// after once the session is open, the median of warm further calls, and,
// when after is above 0, one more call made after as long.
func round(s *server, warm int, after time.Duration, tool string, args map[string]any) (first, warmMedian, idle time.Duration, err error) {
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	cmd.Stdout, cmd.Stderr = nil, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return 0, 0, 0, fmt.Errorf("start: %w", err)
	}
	defer func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		_ = cmd.Wait()
	}()
	hc := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := hc.Get(s.base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			return 0, 0, 0, errors.New("not ready after 10 s")
		}
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "firstcall", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.base + "/mcp"}, nil)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("connect: %w", err)
	}
	defer session.Close()
	time.Sleep(after)
	call := func() (time.Duration, error) {
		start := time.Now()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		d := time.Since(start)
		if err != nil {
			return 0, err
		}
		if res.IsError {
			return 0, fmt.Errorf("%s answered an error: %v", tool, res.Content)
		}
		return d, nil
	}
	if first, err = call(); err != nil {
		return 0, 0, 0, fmt.Errorf("first call: %w", err)
	}
	ds := make([]time.Duration, 0, warm)
	for range warm {
		d, err := call()
		if err != nil {
			return 0, 0, 0, fmt.Errorf("warm call: %w", err)
		}
		ds = append(ds, d)
	}
	if after > 0 {
		time.Sleep(after)
		if idle, err = call(); err != nil {
			return 0, 0, 0, fmt.Errorf("call after %s: %w", after, err)
		}
	}
	return first, median(ds), idle, nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
