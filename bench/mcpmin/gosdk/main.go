// Command gosdk is a minimal MCP server on the official Go SDK: one tool
// over stdio, or with -http ADDR over streamable HTTP with a /readyz that
// answers 200. bench/binsize.sh builds it as the yardstick of the agent's
// binary size, bench/cmd/firstanswer as that of its start.
package main

import (
	"context"
	"flag"
	"log"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ShoutArgs are the arguments of the shout tool.
type ShoutArgs struct {
	Text string `json:"text" jsonschema:"the text to shout"`
}

func shout(_ context.Context, _ *mcp.CallToolRequest, args ShoutArgs) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.ToUpper(args.Text)}}}, nil, nil
}

func main() {
	addr := flag.String("http", "", "serve streamable HTTP on this address instead of stdio")
	flag.Parse()
	s := mcp.NewServer(&mcp.Implementation{Name: "shout", Version: "v1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "shout", Description: "Repeat a text in capitals."}, shout)
	if *addr != "" {
		mux := http.NewServeMux()
		mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
		mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {})
		log.Fatal(http.ListenAndServe(*addr, mux))
	}
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
