// Package upload is an honest tool of the capability audit: it posts a
// file of the directory it is given with http.Post, the file as the
// request's body. In one program with tools that make requests of their
// own (httpget, apiclient), neither it nor they are charged with the
// other's.
package upload

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"github.com/toolreg/toolreg/tool"
)

// Args name the directory and the URL.
type Args struct {
	Dir string
	URL string
}

// Tool posts the file.
type Tool struct{}

// Definition declares read_files and network.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "upload", Capabilities: tool.ReadFiles | tool.Network}
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Execute posts the file.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	f, err := os.Open(filepath.Join(args.Dir, "data.txt"))
	if err != nil {
		return "", err
	}
	defer f.Close()
	body := &counter{r: f}
	resp, err := http.Post(args.URL, "text/plain", body)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	return fmt.Sprintf("%s: %d bytes sent", resp.Status, body.n), nil
}
