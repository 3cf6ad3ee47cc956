// Package gitlog is an honest tool: it runs git, and declares Exec
// (git reads the repository itself; the tool reads no file).
package gitlog

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/toolreg/toolreg/tool"
)

// Tool shows the last commit.
type Tool struct{}

// Args name the repository.
type Args struct{ Dir string }

// Definition declares Exec.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "gitlog", Capabilities: tool.Exec}
}

// Execute runs git log -1.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	cmd := exec.CommandContext(ctx, "git", "log", "-1", "--format=%s")
	cmd.Dir = args.Dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git log: %w", err)
	}
	return string(out), nil
}
