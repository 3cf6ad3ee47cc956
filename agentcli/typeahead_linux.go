//go:build linux

package agentcli

import "golang.org/x/sys/unix"

// discardTypeahead drops what was typed on the terminal fd and not yet
// read, as sudo does before it asks for a password: keys pressed while
// the model answered are not an answer to a question asked after them.
func discardTypeahead(fd int) error {
	return unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH)
}
