// Package errwrap is an honest pair of tools: both wrap errors with %w
// and look into them with errors.As. Tool's errors are its own parse
// errors; Exec's a program's *exec.ExitError, and Tool runs nothing.
package errwrap

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Args hold numbers or a command.
type Args struct {
	Text string `json:"text"`
}

type parseError struct {
	Field int
	Err   error
}

func (e *parseError) Error() string { return fmt.Sprintf("field %d: %v", e.Field, e.Err) }
func (e *parseError) Unwrap() error { return e.Err }

func parse(s string) ([]int, error) {
	var ns []int
	for i, f := range strings.Fields(s) {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, &parseError{Field: i + 1, Err: err}
		}
		ns = append(ns, n)
	}
	return ns, nil
}

func explain(err error) string {
	var pe *parseError
	var ee *exec.ExitError
	switch {
	case errors.As(err, &pe):
		return fmt.Sprintf("bad field %d", pe.Field)
	case errors.As(err, &ee):
		return fmt.Sprintf("exit status %d", ee.ExitCode())
	}
	return err.Error()
}

// Tool sums numbers.
type Tool struct{}

// Definition declares nothing.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "errwrap", Description: "sum numbers"}
}

// Execute sums args.Text's numbers.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	ns, err := parse(args.Text)
	if err != nil {
		return explain(fmt.Errorf("sum: %w", err)), nil
	}
	t := 0
	for _, n := range ns {
		t += n
	}
	return strconv.Itoa(t), nil
}

// Exec runs a command and explains how it failed.
type Exec struct{}

// Definition declares exec.
func (Exec) Definition() tool.Definition {
	return tool.Definition{ID: "errwrap_exec", Description: "run a command", Capabilities: tool.Exec}
}

// Execute runs args.Text with sh.
func (Exec) Execute(ctx context.Context, args Args) (string, error) {
	out, err := exec.CommandContext(ctx, "sh", "-c", args.Text).Output()
	if err != nil {
		return explain(fmt.Errorf("run %q: %w", args.Text, err)), nil
	}
	return string(out), nil
}
