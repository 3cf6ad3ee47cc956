package traps

//go:generate sh -c "echo this runs before any check" // want `in the tool package runs at go generate`

// helper is a helper of the tools.
func helper() string { return "" }

var _ = helper
