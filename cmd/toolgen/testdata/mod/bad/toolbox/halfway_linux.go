package toolbox

// HalfwayOpt is a string on Linux.
type HalfwayOpt string
