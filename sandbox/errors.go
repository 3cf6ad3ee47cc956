package sandbox

import (
	"fmt"

	"github.com/toolreg/toolreg/registry"
)

// callError is the error of a call of tool id that failed with kind: a
// *registry.Error, whose cause is formatted as fmt.Errorf formats it.
// A sandbox uses the registry's kinds: a worker that died is
// registry.KindCrashed, one that could not start registry.KindNotStarted,
// a tool whose restrictions cannot be enforced registry.KindRefused.
func callError(id string, kind registry.Kind, format string, args ...any) *registry.Error {
	return &registry.Error{Tool: id, Kind: kind, Err: fmt.Errorf(format, args...)}
}
