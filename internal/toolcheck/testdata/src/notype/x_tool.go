package notype // want `no exported tool type in x_tool.go`

// helper is not a tool.
func helper() {}
