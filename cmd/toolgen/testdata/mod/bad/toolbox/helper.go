package toolbox

// Unregistered is not in a *_tool.go file, so it is never registered, even
// though it is shaped like a tool.
type Unregistered struct{}
