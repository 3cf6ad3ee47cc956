package toolbox

import "context"

// NoDef has no Definition.
type NoDef struct{}

// NoDefArgs are empty.
type NoDefArgs struct{}

// Execute does nothing.
func (NoDef) Execute(ctx context.Context, args NoDefArgs) (string, error) { return "", nil }
