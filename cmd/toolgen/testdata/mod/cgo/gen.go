// Package cgo is a registry whose tool package calls C from a helper file.
package cgo
