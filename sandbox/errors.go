package sandbox

import (
	"fmt"
)

// Kind classifies how a call failed.
type Kind uint8

// The kinds of failure. The first three come from the worker, which
// stays usable; the others end the worker, and the pool starts a fresh
// one for the next call.
const (
	// KindBadArguments: the tool refused its arguments.
	KindBadArguments Kind = iota + 1
	// KindTool: the tool ran and returned an error.
	KindTool
	// KindPanic: the tool panicked in its own goroutine, or ended it
	// with runtime.Goexit; the worker recovered.
	KindPanic
	// KindCrashed: the worker died during the call (a panic in another
	// goroutine, os.Exit, a signal) or broke the protocol.
	KindCrashed
	// KindTimeout: the call's context passed its deadline; the worker
	// was killed.
	KindTimeout
	// KindCancelled: the call's context was cancelled; the worker was
	// killed.
	KindCancelled
	// KindRefused: the restrictions for the tool's capabilities cannot
	// be enforced here and the pool requires them; the tool did not run.
	KindRefused
	// KindStart: no worker could be started.
	KindStart
)

var kindNames = [...]string{
	KindBadArguments: "bad arguments",
	KindTool:         "tool error",
	KindPanic:        "panic",
	KindCrashed:      "worker crashed",
	KindTimeout:      "timed out",
	KindCancelled:    "cancelled",
	KindRefused:      "sandbox refused",
	KindStart:        "worker start",
}

// String names the kind as it appears in error messages.
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Error is the error of a call that did not answer normally. Match it
// with errors.As; Msg keeps the text the worker sent (the tool's own
// error message for KindBadArguments and KindTool).
type Error struct {
	// Tool is the id of the tool called.
	Tool string
	// Kind says how the call failed.
	Kind Kind
	// Msg is the worker's message, or a description of the fault.
	Msg string
	// Err is the underlying error, if any: context.DeadlineExceeded or
	// context.Canceled for KindTimeout and KindCancelled.
	Err error
}

// Error formats the error as "tool ID: KIND: MSG". For bad arguments and
// tool errors, the message is the tool's own.
func (e *Error) Error() string {
	msg := e.Msg
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("tool %s: %s: %s", e.Tool, e.Kind, msg)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }
