//go:build !go1.27

package releasetag

// Release names the files' side.
const Release = "before go1.27"
