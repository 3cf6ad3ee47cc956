//go:build go1.27

// Package releasetag has files for the releases before and from Go 1.27,
// a constraint the configuration deriver does not evaluate.
package releasetag

// Release names the files' side.
const Release = "go1.27 and later"
