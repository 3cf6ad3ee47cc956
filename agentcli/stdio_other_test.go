//go:build !unix

package agentcli

import (
	"fmt"
	"os"
)

// stdioChild is TestProtocolStdio's child, a test of unix systems alone.
func stdioChild() int {
	fmt.Fprintln(os.Stderr, "TestProtocolStdio runs on unix systems alone")
	return 2
}
