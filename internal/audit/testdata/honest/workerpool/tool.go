// Package workerpool is an honest pair of tools: both run tasks (an
// interface) on a pool of goroutines that take their indices from a
// channel. Tool's tasks hash strings; Fetch's make HTTP requests, and
// Tool reaches none of them.
package workerpool

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/toolreg/toolreg/tool"
)

// Args hold texts or URLs.
type Args struct {
	Items []string `json:"items"`
}

type task interface {
	Do(ctx context.Context) (string, error)
}

func runPool(ctx context.Context, workers int, tasks []task) ([]string, error) {
	out := make([]string, len(tasks))
	errs := make([]error, len(tasks))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				out[i], errs[i] = tasks[i].Do(ctx)
			}
		}()
	}
	for i := range tasks {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

type hashTask struct{ s string }

func (t hashTask) Do(context.Context) (string, error) {
	sum := sha256.Sum256([]byte(t.s))
	return hex.EncodeToString(sum[:8]), nil
}

type fetchTask struct {
	url    string
	client *http.Client
}

func (t fetchTask) Do(ctx context.Context) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.url, nil)
	if err != nil {
		return "", err
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	return fmt.Sprintf("%s %d bytes", resp.Status, n), err
}

// Tool hashes texts.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "workerpool", Description: "hash texts"}
}

// Execute hashes args.Items on four goroutines.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	tasks := make([]task, 0, len(args.Items))
	for _, s := range args.Items {
		tasks = append(tasks, hashTask{s})
	}
	out, err := runPool(ctx, 4, tasks)
	return strings.Join(out, "\n"), err
}

// Fetch measures URLs.
type Fetch struct{}

// Definition declares network.
func (Fetch) Definition() tool.Definition {
	return tool.Definition{ID: "workerpool_fetch", Description: "fetch URLs", Capabilities: tool.Network}
}

// Execute fetches args.Items on four goroutines.
func (Fetch) Execute(ctx context.Context, args Args) (string, error) {
	c := &http.Client{}
	var tasks []task
	for _, u := range args.Items {
		tasks = append(tasks, fetchTask{url: u, client: c})
	}
	out, err := runPool(ctx, 4, tasks)
	return strings.Join(out, "\n"), err
}
