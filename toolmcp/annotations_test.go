package toolmcp

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

func TestAnnotations(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	tests := []struct {
		e    registry.Entry
		want *mcp.ToolAnnotations
	}{
		{registry.Entry{}, &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}},
		{registry.Entry{Capabilities: tool.Network | tool.Env}, &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &yes}},
		{registry.Entry{Capabilities: tool.ReadFiles, Reaches: tool.WriteFiles}, &mcp.ToolAnnotations{DestructiveHint: &yes, OpenWorldHint: &no}},
		{registry.Entry{Reaches: tool.Exec | tool.Network}, &mcp.ToolAnnotations{DestructiveHint: &yes, OpenWorldHint: &yes}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Annotations(tt.e)); diff != "" {
			t.Errorf("capabilities %s, reaches %s (-want +got):\n%s", tt.e.Capabilities, tt.e.Reaches, diff)
		}
	}
}
