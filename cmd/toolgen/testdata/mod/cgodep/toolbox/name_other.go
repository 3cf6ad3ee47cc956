//go:build !darwin

package toolbox

// osName is the name of the operating system.
const osName = "other"
