package toolbox

// osName is the name of the operating system; one file per platform
// makes darwin a build configuration of its own, which toolgen reads
// for darwin, without cgo.
const osName = "macOS"
