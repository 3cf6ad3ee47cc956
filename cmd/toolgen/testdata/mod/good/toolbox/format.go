package toolbox

// Helper is in a helper file: it has the methods of a tool, but files not
// named *_tool.go are never registered.
type Helper struct{}

// Definition is not read.
func (Helper) Definition() string { return "" }
