//go:build !linux

package toolbox

const driftDescription = "Answer nothing, elsewhere. Use it when a test needs a tool that differs between platforms."
