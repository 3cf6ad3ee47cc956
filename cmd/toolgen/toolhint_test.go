package main

import (
	"fmt"
	"testing"
)

// TestToolHint checks the end of the warning about an unknown tool in a
// skill's allowed-tools: the whole list at and below maxListedTools, the
// nearest name and the count past it, and no name when none is near.
func TestToolHint(t *testing.T) {
	tools := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("tool_%02d", i))
		}
		return out
	}
	for _, tc := range []struct {
		n    int
		name string
		want string
	}{
		{1, "tool_0", "the tools: tool_00"},
		{maxListedTools - 1, "x", "the tools: tool_00, tool_01, tool_02, tool_03, tool_04, tool_05, tool_06, tool_07, tool_08, tool_09, tool_10"},
		{maxListedTools, "x", "the tools: tool_00, tool_01, tool_02, tool_03, tool_04, tool_05, tool_06, tool_07, tool_08, tool_09, tool_10, tool_11"},
		{maxListedTools + 1, "tool_02x", `did you mean "tool_02"? (one of 13 tools)`},
		{1000, "tool_99", `did you mean "tool_99"? (one of 1000 tools)`},
		{1000, "calculator", "none of its 1000 tools has a name near it"},
	} {
		if got := toolHint(tools(tc.n), tc.name); got != tc.want {
			t.Errorf("toolHint(%d tools, %q) = %q, want %q", tc.n, tc.name, got, tc.want)
		}
	}
}
