package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"syscall"
)

// Socket is a probe.
type Socket struct{}

// SocketArgs are its arguments.
type SocketArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (Socket) Definition() tool.Definition {
	return tool.Definition{ID: "socket", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (Socket) Execute(ctx context.Context, args SocketArgs) (string, error) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		return "", err
	}
	return "", syscall.Connect(fd, &syscall.SockaddrInet4{Port: 1})
}
