package toolbox

import (
	"context"
	"os"
	"os/exec"
)

type runner interface {
	run(ctx context.Context) (string, error)
}

type shell struct{}

func (shell) run(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "true").Output()
	return string(out), err
}

func home() string {
	f := os.Getenv
	return f("HOME")
}
