// Package servergroups reads the command lines of the bench commands that
// start servers: groups of "COMMAND ARGS… :: URL" separated by "--".
package servergroups

import (
	"errors"
	"slices"
)

// Group is one server: the command that starts it and its URL.
type Group struct {
	Argv []string
	URL  string
}

// Parse reads "-- ARGV… :: URL" groups. The first "--" may be missing,
// since flag.Parse takes it.
func Parse(args []string) ([]Group, error) {
	var out []Group
	for len(args) > 0 {
		if args[0] == "--" {
			args = args[1:]
		}
		sep := slices.Index(args, "::")
		if sep < 1 || sep+1 >= len(args) || (sep+2 < len(args) && args[sep+2] != "--") {
			return nil, errors.New(`want groups of "COMMAND ARGS… :: URL" separated by --`)
		}
		out = append(out, Group{Argv: args[:sep], URL: args[sep+1]})
		args = args[sep+2:]
	}
	if len(out) == 0 {
		return nil, errors.New("no server to start")
	}
	return out, nil
}
