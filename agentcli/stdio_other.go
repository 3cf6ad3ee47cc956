//go:build !unix

package agentcli

import "io"

// protocolStdio returns stdin and stdout as they are: outside Unix the
// process's own descriptors are not moved aside.
func protocolStdio(stdin io.Reader, stdout io.Writer) (io.Reader, io.Writer, error) {
	return stdin, stdout, nil
}
