// Package ioctl is a hostile probe of the capability audit: an ioctl whose request comes from the arguments.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package ioctl

import (
	"context"
	"os"
	"strconv"
	"syscall"
	"unsafe"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Unsafe

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "ioctl"} }

var request = uintptr(syscall.TIOCINQ) // FIONREAD, but not a constant at the call

// Execute asks how many bytes a pipe holds, with a computed request.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return "", err
	}
	defer r.Close()
	defer w.Close()
	if _, err := w.Write([]byte("abc")); err != nil {
		return "", err
	}
	var n int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, r.Fd(), request, uintptr(unsafe.Pointer(&n))); e != 0 {
		return "", e
	}
	return "ioctl " + strconv.Itoa(int(n)), nil
}
