package toolmcp_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolreg/toolreg/internal/testbox"
	"github.com/toolreg/toolreg/toolmcp"
)

// BenchmarkCallOverHTTP calls testbox's count over streamable HTTP on
// loopback, the SDK's client and this package's server in one process:
// what a tools/call costs both ends, allocations included
// (BENCHMARKS.md, "agent mcp under load"):
//
//	go test -run '^$' -bench CallOverHTTP -benchmem -memprofile mem.out ./toolmcp
func BenchmarkCallOverHTTP(b *testing.B) {
	srv, err := toolmcp.NewServer(testbox.Toolbox(), nil)
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(toolmcp.HTTPHandler(srv, nil))
	defer hs.Close()
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	s, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: hs.Client()}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	params := &mcp.CallToolParams{Name: "count", Arguments: map[string]any{"text": "a b"}}
	for b.Loop() {
		res, err := s.CallTool(ctx, params)
		if err != nil {
			b.Fatal(err)
		}
		if res.IsError {
			b.Fatalf("count answered an error: %v", res.Content)
		}
	}
}
