//go:build cgo || !linux || !amd64

package helper

func env() string { return "" }
