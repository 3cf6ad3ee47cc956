// Command gosdk is a minimal MCP server on the official Go SDK: one tool
// over stdio. bench/binsize.sh builds it as the yardstick of the agent's
// binary size.
package main

import (
	"context"
	"log"
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
	s := mcp.NewServer(&mcp.Implementation{Name: "shout", Version: "v1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "shout", Description: "Repeat a text in capitals."}, shout)
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
