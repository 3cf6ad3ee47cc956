// Package good is a registry generated from every feature of the convention.
package good

//go:generate go run github.com/toolreg/toolreg/cmd/toolgen
