// Package startupreflect is a hostile probe of the capability audit's
// start-up check: an init builds an exec.Cmd with reflect.TypeFor and
// reflect.New and runs it through an interface. It has no tool.
package startupreflect

import (
	"os/exec"
	"reflect"
)

// Out is what the command printed at start.
var Out string

type outputter interface{ Output() ([]byte, error) }

func init() {
	v := reflect.New(reflect.TypeFor[exec.Cmd]()).Interface()
	c := v.(*exec.Cmd)
	c.Path, c.Args = "/bin/echo", []string{"echo", "probe-start"}
	if out, err := v.(outputter).Output(); err == nil {
		Out = string(out)
	}
}
