package registry

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind classifies a failed call.
type Kind uint8

// The kinds of failure, one list for every failure of a call, wherever
// the tool ran: in process, in a sandbox worker (package sandbox returns
// these kinds too) or in a mounted server. A tool's own error is KindTool;
// every other kind is decided by the registry, a mounted server or a
// sandbox.
const (
	// KindTool is an error the tool returned.
	KindTool Kind = iota + 1
	// KindUnknownTool is a call of a name that no selected tool has.
	KindUnknownTool
	// KindArguments is arguments that failed to decode or validate, or
	// that were over the size limit. The tool did not run.
	KindArguments
	// KindRefused is a call refused before the tool ran: by the
	// confirmation, or by a sandbox that must enforce the restrictions of
	// the tool's capabilities and cannot. The tool did not run.
	KindRefused
	// KindTimeout is a call that ran past the tool's timeout.
	KindTimeout
	// KindPanic is a tool that panicked.
	KindPanic
	// KindCancelled is a call whose caller's context ended first.
	KindCancelled
	// KindRemote is a mounted server that could not answer the call: it
	// was unreachable, lost, or refused the request at the protocol level.
	KindRemote
	// KindCrashed is a sandbox worker process that died while it ran the
	// call (a panic in another goroutine, os.Exit, a signal, a memory
	// limit), or broke the protocol.
	KindCrashed
	// KindNotStarted is a call whose sandbox worker process could not be
	// started (or whose pool was closed). The tool did not run.
	KindNotStarted
)

var kindNames = [...]string{
	KindTool:        "tool error",
	KindUnknownTool: "unknown tool",
	KindArguments:   "bad arguments",
	KindRefused:     "refused",
	KindTimeout:     "timed out",
	KindPanic:       "panic",
	KindCancelled:   "cancelled",
	KindRemote:      "remote failure",
	KindCrashed:     "crashed",
	KindNotStarted:  "not started",
}

// String names the kind, for logs and metrics: "bad arguments", "timed
// out" and so on.
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// phrase is how a kind reads in the message between the tool's name and
// the cause; "" leaves the cause alone.
func (k Kind) phrase() string {
	switch k {
	case KindArguments:
		return "bad arguments"
	case KindRefused:
		return "not run"
	case KindTimeout:
		return "timed out"
	case KindPanic:
		return "panic"
	case KindCancelled:
		return "call cancelled"
	case KindCrashed:
		return "the process running it died"
	case KindNotStarted:
		return "not run: no process could be started to run it"
	}
	return ""
}

// Error is a failed tool call: which tool, what kind of failure, and the
// cause. Every failed Result carries one, whoever ran the tool (this
// process, a worker, a mounted server). Tell kinds apart with errors.As, or
// with errors.Is and the Err* values of this package.
//
// Its message is the one the model reads after "Error: " (see [Text]), so
// it names the tool and says what to change.
type Error struct {
	// Tool is the name the call was made with.
	Tool string
	// Kind is what went wrong.
	Kind Kind
	// Err is the cause: the tool's error, the decoder's, the confirmation's
	// answer; for KindUnknownTool, the list of tools there are; for
	// KindTimeout, how long the call was given. It may be nil.
	Err error
}

// Error returns the message, for example
// `weather: bad arguments: field "days": expected integer from 1 to 16, got 40`.
func (e *Error) Error() string { return e.text("") }

// text is prefix followed by the message, written in one allocation
// beside the cause's own message: a failed call's Text is made for every
// failure, bad arguments included, and costs little.
func (e *Error) text(prefix string) string {
	if e.Tool == "" && e.Kind != KindUnknownTool {
		// Not yet attributed to a call, as from an Entry's Bind: the cause
		// alone.
		if e.Err != nil {
			return prefix + e.Err.Error()
		}
		return prefix + e.Kind.String()
	}
	var cause string
	if e.Err != nil {
		cause = e.Err.Error()
	}
	var b strings.Builder
	switch e.Kind {
	case KindUnknownTool:
		q := strconv.Quote(e.Tool) // as %q writes it
		b.Grow(len(prefix) + len("unknown tool ; ") + len(q) + len(cause))
		b.WriteString(prefix)
		b.WriteString("unknown tool ")
		b.WriteString(q)
		if e.Err != nil {
			b.WriteString("; ")
			b.WriteString(cause)
		}
		return b.String()
	case KindTimeout:
		b.Grow(len(prefix) + len(e.Tool) + len(" timed out ") + len(cause))
		b.WriteString(prefix)
		b.WriteString(e.Tool)
		b.WriteString(" timed out")
		if e.Err != nil {
			b.WriteString(" ")
			b.WriteString(cause)
		}
		return b.String()
	}
	p := e.Kind.phrase()
	b.Grow(len(prefix) + len(e.Tool) + len(": ") + len(p) + len(": ") + len(cause))
	b.WriteString(prefix)
	b.WriteString(e.Tool)
	if p != "" {
		b.WriteString(": ")
		b.WriteString(p)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(cause)
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is the Err* value of e's kind, so that
// errors.Is(err, registry.ErrTimeout) holds for any timed-out call.
func (e *Error) Is(target error) bool {
	k, ok := target.(kindError)
	return ok && Kind(k) == e.Kind
}

// kindError is the type of the Err* values: a kind that errors.Is matches
// against an *Error of that kind.
type kindError Kind

func (k kindError) Error() string { return Kind(k).String() }

// Values to test a failure's kind with errors.Is.
var (
	ErrUnknownTool error = kindError(KindUnknownTool)
	ErrArguments   error = kindError(KindArguments)
	ErrRefused     error = kindError(KindRefused)
	ErrTimeout     error = kindError(KindTimeout)
	ErrPanic       error = kindError(KindPanic)
	ErrCancelled   error = kindError(KindCancelled)
	ErrRemote      error = kindError(KindRemote)
	ErrCrashed     error = kindError(KindCrashed)
	ErrNotStarted  error = kindError(KindNotStarted)
)

// Text renders err as the text the model reads: "Error: " and the
// message. It is the one place that text is written.
func Text(err error) string {
	if e, ok := err.(*Error); ok {
		return e.text("Error: ")
	}
	return "Error: " + err.Error()
}

// ArgumentError marks err, a failure to decode or validate a tool's
// arguments, as KindArguments. Generated decoders use it; the registry
// fills in the tool's name. A nil err stays nil.
func ArgumentError(err error) error {
	if err == nil {
		return nil
	}
	return &Error{Kind: KindArguments, Err: err}
}

// asError returns err as the *Error of a call of the named tool: err itself
// when it is one (with the tool's name filled in), or a KindTool error
// wrapping it.
func asError(name string, err error) *Error {
	if e, ok := err.(*Error); ok {
		if e.Tool == "" {
			c := *e
			c.Tool = name
			return &c
		}
		return e
	}
	return &Error{Tool: name, Kind: KindTool, Err: err}
}
