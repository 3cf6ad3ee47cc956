package toolbox

//go:generate sh -c "echo this runs before any check"

// helper is a helper of the tools.
func helper() string { return "" }

var _ = helper
