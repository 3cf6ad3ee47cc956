// Package sharedhelper is an honest pair of tools of the capability
// audit's precision corpus: both call the same helpers with functions of
// their own (a retry loop, an errgroup-style group whose Go runs each
// function in a goroutine, a generic map over a slice). Tool reads files
// and Fetch makes HTTP requests; neither reaches what the other's
// functions do.
package sharedhelper

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
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

// group runs functions in goroutines and joins their errors.
type group struct {
	wg   sync.WaitGroup
	mu   sync.Mutex
	errs []error
}

// Go runs f in a goroutine.
func (g *group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.mu.Lock()
			g.errs = append(g.errs, err)
			g.mu.Unlock()
		}
	}()
}

// Wait waits for every function and returns their errors.
func (g *group) Wait() error {
	g.wg.Wait()
	return errors.Join(g.errs...)
}

// mapSlice applies f to each element of xs.
func mapSlice[T, U any](xs []T, f func(T) (U, error)) ([]U, error) {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		u, err := f(x)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, nil
}

// source is where a tool's data comes from.
type source interface {
	Load(ctx context.Context) ([]byte, error)
	Name() string
}

// fileSource is a file.
type fileSource struct{ path string }

// Load reads the file.
func (f fileSource) Load(ctx context.Context) ([]byte, error) { return os.ReadFile(f.path) }

// Name is the file's path.
func (f fileSource) Name() string { return f.path }

// urlSource is a URL.
type urlSource struct{ url string }

// Load fetches the URL.
func (u urlSource) Load(ctx context.Context) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(io.LimitReader(resp.Body, 1<<16))
}

// Name is the URL.
func (u urlSource) Name() string { return u.url }

// describe loads s and says how many lines it has.
func describe(ctx context.Context, s source) string {
	b, err := s.Load(ctx)
	if err != nil {
		return s.Name() + ": " + err.Error()
	}
	return s.Name() + ": " + strings.Repeat("|", strings.Count(string(b), "\n")%10)
}

// Args name files or URLs.
type Args struct {
	Items []string `json:"items"`
}

// Tool returns the total size of files.
type Tool struct{}

// Definition declares the reading.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "sizes", Description: "total size of files", Capabilities: tool.ReadFiles}
}

// Execute reads each file, retrying, in parallel.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var g group
	sizes := make([]int, len(args.Items))
	for i, p := range args.Items {
		g.Go(func() error {
			return retry(ctx, 3, func() error {
				b, err := os.ReadFile(p)
				sizes[i] = len(b)
				return err
			})
		})
	}
	if err := g.Wait(); err != nil {
		return "", err
	}
	names, err := mapSlice(args.Items, func(p string) (string, error) { return strings.TrimSpace(p), nil })
	if err != nil {
		return "", err
	}
	total := 0
	for _, n := range sizes {
		total += n
	}
	first := describe(ctx, fileSource{args.Items[0]})
	return first + "; " + strings.Join(names, ",") + ": " + strings.Repeat("#", total%10), nil
}

// Fetch returns the bodies of URLs.
type Fetch struct{}

// Definition declares the network.
func (Fetch) Definition() tool.Definition {
	return tool.Definition{ID: "fetch", Description: "fetch URLs", Capabilities: tool.Network}
}

// Execute fetches each URL, retrying, in parallel.
func (Fetch) Execute(ctx context.Context, args Args) (string, error) {
	var g group
	bodies := make([]string, len(args.Items))
	for i, u := range args.Items {
		g.Go(func() error {
			return retry(ctx, 3, func() error {
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
				bodies[i] = string(b)
				return err
			})
		})
	}
	if err := g.Wait(); err != nil {
		return "", err
	}
	lens, err := mapSlice(bodies, func(b string) (int, error) { return len(b), nil })
	if err != nil {
		return "", err
	}
	_ = lens
	return describe(ctx, urlSource{args.Items[0]}) + "\n" + strings.Join(bodies, "\n"), nil
}
