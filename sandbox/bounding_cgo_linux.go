//go:build linux && cgo

package sandbox

// A worker's capability bounding set is emptied here, in a constructor
// that the C runtime runs before the Go runtime starts a thread, when the
// pool asked for it in the worker's environment (boundingEnv): one
// prctl a capability on the one thread there is, where dropCapabilities
// would need a round over every thread for each (41 rounds, 3-6 ms of
// a worker's start). It only ever takes capabilities away, so a process
// that is not a worker and finds the variable set loses nothing it may
// not lose. dropCapabilities still checks every thread's set and drops
// what is left.

/*
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

__attribute__((constructor)) static void toolreg_sandbox_drop_bounding_set(void) {
	const char *v = getenv("TOOLREG_SANDBOX_BOUNDING_SET");
	if (v == NULL || strcmp(v, "drop") != 0) {
		return;
	}
	for (int c = 0; c < 64; c++) {
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) != 0 && errno == EINVAL) {
			break; // past the last capability the kernel knows
		}
	}
}
*/
import "C"
