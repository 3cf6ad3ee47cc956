// Package uatransport is an honest pair of tools: Fetch gets a URL with
// an http.Client its package keeps, whose Transport (a RoundTripper of
// its own) sets the User-Agent over http.DefaultTransport; Tool, next to
// it, only builds the same request and prints it, and opens no
// connection.
package uatransport

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Args hold a URL and query.
type Args struct {
	URL   string            `json:"url"`
	Query map[string]string `json:"query"`
}

type uaTransport struct {
	next http.RoundTripper
	ua   string
}

func (t *uaTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("User-Agent", t.ua)
	return t.next.RoundTrip(req)
}

var client = &http.Client{
	Timeout:   15 * time.Second,
	Transport: &uaTransport{next: http.DefaultTransport, ua: "toolreg/1"},
}

func newRequest(ctx context.Context, raw string, q map[string]string) (*http.Request, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	vals := u.Query()
	for k, v := range q {
		vals.Set(k, v)
	}
	u.RawQuery = vals.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// Tool shows the request Fetch would send.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "uatransport", Description: "show a request"}
}

// Execute prints the request line and headers.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	req, err := newRequest(ctx, args.URL, args.Query)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	b.WriteString(req.Method + " " + req.URL.RequestURI() + " HTTP/1.1\r\nHost: " + req.Host + "\r\n")
	if err := req.Header.Write(&b); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Fetch gets a URL.
type Fetch struct{}

// Definition declares network.
func (Fetch) Definition() tool.Definition {
	return tool.Definition{ID: "uatransport_fetch", Description: "get a URL", Capabilities: tool.Network}
}

// Execute gets the URL with the package's client.
func (Fetch) Execute(ctx context.Context, args Args) (string, error) {
	req, err := newRequest(ctx, args.URL, args.Query)
	if err != nil {
		return "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	return string(b), err
}
