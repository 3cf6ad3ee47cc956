package toolbox

// #include <unistd.h>
import "C"

// pid asks C for the process id.
func pid() int {
	return int(C.getpid())
}
