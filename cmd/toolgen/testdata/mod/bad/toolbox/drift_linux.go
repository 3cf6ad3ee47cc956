package toolbox

const driftDescription = "Answer nothing, on Linux. Use it when a test needs a tool that differs between platforms."
