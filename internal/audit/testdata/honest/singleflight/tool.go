// Package singleflight is an honest pair of tools of the capability
// audit's precision corpus: both share one golang.org/x/sync/singleflight
// Group to run each piece of work once for concurrent calls. Tool reads
// files and Fetch makes HTTP requests; a call with a key in flight waits
// for the work another call started, and runs nothing of its own, so
// neither reaches what the other's functions do. The Group's DoChan,
// which nothing calls, gives them nothing.
package singleflight

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"golang.org/x/sync/singleflight"

	"github.com/toolreg/toolreg/tool"
)

// Args name a file or a URL.
type Args struct {
	Name string `json:"name"`
}

var group singleflight.Group

// Tool returns a file's size.
type Tool struct{}

// Definition declares the reading.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "singleflight", Description: "return a file's size", Capabilities: tool.ReadFiles}
}

// Execute returns the size of the file args.Name.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	v, err, _ := group.Do("file:"+args.Name, func() (any, error) {
		b, err := os.ReadFile(args.Name)
		return len(b), err
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprint(v), nil
}

// Fetch returns a URL's status.
type Fetch struct{}

// Definition declares the network.
func (Fetch) Definition() tool.Definition {
	return tool.Definition{ID: "singleflight_fetch", Description: "return a URL's status", Capabilities: tool.Network}
}

// Execute returns the status of args.Name.
func (Fetch) Execute(ctx context.Context, args Args) (string, error) {
	v, err, _ := group.Do("url:"+args.Name, func() (any, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodHead, args.Name, nil)
		if err != nil {
			return nil, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		return resp.Status, nil
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprint(v), nil
}
