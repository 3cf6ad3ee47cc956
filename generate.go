package toolreg

//go:generate go run ./cmd/toolgen
