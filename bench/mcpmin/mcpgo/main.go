// Command mcpgo is a minimal MCP server on mark3labs/mcp-go: one tool over
// stdio. bench/binsize.sh builds it as the yardstick of the agent's binary
// size.
package main

import (
	"context"
	"log"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func shout(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	text, err := req.RequireString("text")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	return mcp.NewToolResultText(strings.ToUpper(text)), nil
}

func main() {
	s := server.NewMCPServer("shout", "v1")
	s.AddTool(mcp.NewTool("shout",
		mcp.WithDescription("Repeat a text in capitals."),
		mcp.WithString("text", mcp.Required(), mcp.Description("the text to shout")),
	), shout)
	if err := server.ServeStdio(s); err != nil {
		log.Fatal(err)
	}
}
