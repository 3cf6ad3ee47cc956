// Package flagset documents a limit of the audit: it does not follow a
// flag.FlagSet's fields, so a FlagSet of the tool's own that returns its
// errors (ContinueOnError) and prints nothing (SetOutput(io.Discard)) is
// charged with what the FlagSet would do by default: Parse may end the
// program (os.Exit under ExitOnError, unsafe) and a flag defined twice, or
// a usage message, writes to os.Stderr when no output is set
// (write_files). An honest tool using one meets a false warning.
package flagset

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Tool explains a command line.
type Tool struct{}

// Args hold the command line.
type Args struct{ Line string }

// Execute parses the command line's flags.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	fs := flag.NewFlagSet("cmd", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	n := fs.Int("n", 1, "count")
	if err := fs.Parse(strings.Fields(args.Line)); err != nil {
		return "", err
	}
	return fmt.Sprintf("n=%d rest=%q", *n, fs.Args()), nil
}
