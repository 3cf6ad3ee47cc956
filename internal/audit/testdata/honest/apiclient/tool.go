// Package apiclient is an honest tool: an HTTP client behind an interface
// of its own (so that tests can swap it), JSON of its own types, a
// context with a timeout and errors.As to an interface for timeouts.
package apiclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Tool looks a package up in a registry's JSON API.
type Tool struct{}

// Args name the registry and the package.
type Args struct {
	Base string `json:"base"`
	Name string `json:"name"`
}

// Definition declares Network.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "apiclient", Capabilities: tool.Network}
}

type doer interface {
	Do(*http.Request) (*http.Response, error)
}

type client struct {
	http doer
	base string
}

type release struct {
	Version string    `json:"version"`
	Date    time.Time `json:"date"`
}

type info struct {
	Name     string    `json:"name"`
	Releases []release `json:"releases"`
}

func (c *client) get(ctx context.Context, path string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		var te interface{ Timeout() bool }
		if errors.As(err, &te) && te.Timeout() {
			return fmt.Errorf("registry timed out: %w", err)
		}
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("registry: %s", resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// Execute returns the package's latest version.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	c := &client{http: &http.Client{}, base: args.Base}
	var in info
	if err := c.get(ctx, "/packages/"+url.PathEscape(args.Name), &in); err != nil {
		return "", err
	}
	if len(in.Releases) == 0 {
		return "", errors.New("no release")
	}
	latest := in.Releases[0]
	for _, r := range in.Releases[1:] {
		if r.Date.After(latest.Date) {
			latest = r
		}
	}
	out, err := json.Marshal(map[string]string{"name": in.Name, "version": latest.Version})
	return string(out), err
}
