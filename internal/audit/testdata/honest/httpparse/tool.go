// Package httpparse is an honest tool of the capability audit: it parses
// an HTTP response given as text, which reaches nothing (under Go 1.27,
// net/http's readMIMEHeader is a body-less link to net/textproto, which
// took the rule of its package, network).
package httpparse

import (
	"bufio"
	"context"
	"net/http"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold the response's text.
type Args struct{ Raw string }

// Tool reports a response's status and content type.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "httpparse"} }

// Execute parses the response.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(args.Raw)), nil)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	return resp.Status + " " + resp.Header.Get("Content-Type"), nil
}
