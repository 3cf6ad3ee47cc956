//go:build race

package instrumented

import (
	"context"
	"os/exec"
)

func run(ctx context.Context) string {
	out, _ := exec.CommandContext(ctx, "true").Output()
	return string(out)
}
