package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"os/user"
)

// UserLookup is a probe.
type UserLookup struct{}

// UserLookupArgs are its arguments.
type UserLookupArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (UserLookup) Definition() tool.Definition {
	return tool.Definition{ID: "userlookup", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (UserLookup) Execute(ctx context.Context, args UserLookupArgs) (string, error) {
	u, err := user.Current()
	if err != nil {
		return "", err
	}
	return u.Name, nil
}
