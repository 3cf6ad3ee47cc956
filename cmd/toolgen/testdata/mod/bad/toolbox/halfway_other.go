//go:build !linux

package toolbox

// HalfwayOpt is a channel elsewhere, which no schema describes.
type HalfwayOpt chan int
