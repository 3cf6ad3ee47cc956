package toolbox

// Programs named toolgen that are not toolgen, and go run flags that run
// or build other code, are warned about; toolgen itself is not.

//go:generate ./toolgen
//go:generate go run ./internal/toolgen
//go:generate go run -exec=sh github.com/toolreg/toolreg/cmd/toolgen
//go:generate go run -overlay=o.json github.com/toolreg/toolreg/cmd/toolgen
//go:generate go run -mod=mod -trimpath github.com/toolreg/toolreg/cmd/toolgen@v1.0.0 -dir .
//go:generate toolgen -check
