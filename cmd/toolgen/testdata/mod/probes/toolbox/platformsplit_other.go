//go:build !linux

package toolbox

import "os"

func splitHelper(q string) string {
	h, _ := os.Hostname()
	return h + q
}
