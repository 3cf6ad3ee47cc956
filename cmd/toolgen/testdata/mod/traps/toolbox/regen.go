package toolbox

// Programs named toolgen that are not toolgen, and go run flags that run
// or build other code, and a version of toolgen the module does not
// require, are warned about; toolgen itself is not.

//go:generate ./toolgen
//go:generate go run ./internal/toolgen
//go:generate go run -exec=sh github.com/toolreg/toolreg/cmd/toolgen
//go:generate go run -overlay=o.json github.com/toolreg/toolreg/cmd/toolgen
//go:generate go run github.com/toolreg/toolreg/cmd/toolgen@v0.0.0-20260101000000-0123456789ab
//go:generate go run -mod=mod -trimpath github.com/toolreg/toolreg/cmd/toolgen -dir .
//go:generate toolgen -check
