package jsonarg

import (
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/toolreg/toolreg/internal/clip"
)

// Error is a failure to decode or validate arguments. Path locates the
// value in the arguments object, as in "filter.tags[2]"; it is empty for
// the object itself.
type Error struct {
	Path   string
	Msg    string
	syntax bool
	// stringed is set when an object or array was sent as a string.
	stringed bool
}

// SentAsString reports whether the failure is an object or array sent as
// a JSON string, a mistake some models make that the registry can repair.
func (e *Error) SentAsString() bool { return e.stringed }

// Error returns the message, prefixed by the field's path when there is
// one.
func (e *Error) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	// `field %q: %s`, in one allocation: %q is strconv.Quote.
	b := make([]byte, 0, len(`field "": `)+len(e.Path)+len(e.Msg)+8)
	b = append(b, "field "...)
	b = strconv.AppendQuote(b, e.Path)
	b = append(b, ": "...)
	b = append(b, e.Msg...)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Errorf returns an Error with the formatted message and no path; At adds
// the path.
func Errorf(format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

// At returns err located at the path given by its segments: a string is a
// field name, an int an array index. A syntax error keeps no path, since
// its offset already says where it is.
func At(err error, path ...any) error {
	e, ok := err.(*Error)
	if !ok || e.syntax {
		return err
	}
	var b strings.Builder
	for _, seg := range path {
		switch s := seg.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
		case int:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s))
			b.WriteByte(']')
		}
	}
	if e.Path != "" {
		if e.Path[0] != '[' && b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(e.Path)
	}
	return &Error{Path: b.String(), Msg: e.Msg, stringed: e.stringed}
}

// Missing reports a required field that was left out.
func Missing(name string) error {
	return &Error{Path: name, Msg: "required, but missing"}
}

// Duplicate reports a field given twice.
func Duplicate(name string) error {
	return &Error{Path: name, Msg: "given more than once"}
}

// Unknown reports a key that names no field; known lists the valid names,
// quoted and separated by commas, or is empty when the object has none.
func Unknown(key []byte, known string) error {
	name := clip.String(string(key), maxShown)
	if known == "" {
		return &Error{Path: name, Msg: "unknown field; this object takes no fields"}
	}
	return &Error{Path: name, Msg: "unknown field; expected one of " + known}
}
