// Package configs is a probe of the audit's build configurations: its
// helper reads the environment only when built without cgo on
// linux/amd64 (as the Dockerfile's CGO_ENABLED=0 build does), and runs a
// program only with -tags audittag.
package configs

import (
	"context"

	"github.com/toolreg/toolreg/internal/audit/testdata/configs/helper"
)

// Tool is the probe.
type Tool struct{}

// Args are empty.
type Args struct{}

// Execute calls the helper.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	return helper.Do(ctx), nil
}
