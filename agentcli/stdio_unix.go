//go:build unix

package agentcli

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// protocolStdio takes stdin and stdout for the MCP protocol over stdio.
// When they are the process's own (descriptors 0 and 1), it moves them to
// descriptors of their own, closed on exec, and puts /dev/null on 0 and
// stderr on 1: whatever else in the process reads stdin or writes stdout
// (a tool run in process that prints with fmt.Println, by mistake or to
// forge answers and requests to the client; a library that logs there)
// reaches stderr, not the protocol, and reads nothing of the client's.
// Other readers and writers (tests, pipes) are returned as they are.
func protocolStdio(stdin io.Reader, stdout io.Writer) (io.Reader, io.Writer, error) {
	if stdin != os.Stdin || stdout != os.Stdout {
		return stdin, stdout, nil
	}
	in, err := unix.FcntlInt(0, unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return nil, nil, fmt.Errorf("taking stdin for the protocol: %w", err)
	}
	out, err := unix.FcntlInt(1, unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		unix.Close(in)
		return nil, nil, fmt.Errorf("taking stdout for the protocol: %w", err)
	}
	null, err := os.Open(os.DevNull)
	if err == nil {
		err = dupTo(int(null.Fd()), 0)
		null.Close()
	}
	if err == nil {
		err = dupTo(2, 1)
	}
	if err != nil {
		unix.Close(in)
		unix.Close(out)
		return nil, nil, fmt.Errorf("keeping stdin and stdout for the protocol: %w", err)
	}
	return os.NewFile(uintptr(in), "stdin"), os.NewFile(uintptr(out), "stdout"), nil
}
