// Package wraphelper is an honest pair of tools of the capability
// audit's precision corpus: both call helpers that wrap the function they
// are given in a closure of their own (a retry that recovers panics, a
// visit of each line of a text through a range-over-func loop). Tool
// reads files and Fetch makes HTTP requests; neither reaches what the
// other's functions do.
package wraphelper

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// retry calls f until it succeeds, at most n times.
func retry(ctx context.Context, n int, f func() error) error {
	var err error
	for range n {
		if err = f(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
	return err
}

// safely retries f, turning a panic into an error.
func safely(ctx context.Context, f func() error) error {
	return retry(ctx, 3, func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		return f()
	})
}

// eachLine calls visit with each non-empty line of s.
func eachLine(s string, visit func(string) error) error {
	for line := range strings.Lines(s) {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		if err := visit(line); err != nil {
			return err
		}
	}
	return nil
}

// Args hold file names or URLs, one a line.
type Args struct {
	Items string `json:"items"`
}

// Tool returns the total size of files.
type Tool struct{}

// Definition declares the reading.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "wrapsizes", Description: "total size of files", Capabilities: tool.ReadFiles}
}

// Execute reads each file, retrying.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	total := 0
	err := eachLine(args.Items, func(p string) error {
		return safely(ctx, func() error {
			b, err := os.ReadFile(p)
			total += len(b)
			return err
		})
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprint(total), nil
}

// Fetch returns the bodies of URLs.
type Fetch struct{}

// Definition declares the network.
func (Fetch) Definition() tool.Definition {
	return tool.Definition{ID: "wrapfetch", Description: "fetch URLs", Capabilities: tool.Network}
}

// Execute fetches each URL, retrying.
func (Fetch) Execute(ctx context.Context, args Args) (string, error) {
	var bodies []string
	err := eachLine(args.Items, func(u string) error {
		return safely(ctx, func() error {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
			if err != nil {
				return err
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
			bodies = append(bodies, string(b))
			return err
		})
	})
	if err != nil {
		return "", err
	}
	return strings.Join(bodies, "\n"), nil
}
