package agentcli

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/toolreg/toolreg/internal/nearest"
)

// The exit statuses of the agent, the same for every command.
const (
	// exitOK: the command did what was asked.
	exitOK = 0
	// exitFailed: the model, its endpoint or a tool failed, or the run
	// was interrupted.
	exitFailed = 1
	// exitUsage: the command line, the environment or the config file is
	// wrong (a bad flag or value, no key, no model); nothing was asked.
	exitUsage = 2
)

// usageError is a failure of the agent's configuration: the run ends with
// exitUsage rather than exitFailed.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// exitCode returns the exit status for err: exitUsage for a usageError,
// exitFailed for any other.
func exitCode(err error) int {
	if ue := (*usageError)(nil); errors.As(err, &ue) {
		return exitUsage
	}
	return exitFailed
}

var (
	badValueRE = lazyRE(`^invalid (?:boolean )?value "((?:[^"\\]|\\.)*)" for (?:flag )?-([^:]+): `)
	unknownRE  = lazyRE(`^flag provided but not defined: -(.+)$`)
	needsArgRE = lazyRE(`^flag needs an argument: -(.+)$`)
)

// explainFlagError rewrites an error of fs's Parse for a person: what a
// value of the flag looks like, or the flag a misspelt one may have meant.
func explainFlagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if m := unknownRE().FindStringSubmatch(msg); m != nil {
		out := fmt.Sprintf("no flag -%s", m[1])
		if near := nearestFlag(fs, m[1]); near != "" {
			out += fmt.Sprintf(": did you mean -%s?", near)
		}
		return out
	}
	if m := needsArgRE().FindStringSubmatch(msg); m != nil {
		if f := fs.Lookup(m[1]); f != nil {
			return fmt.Sprintf("-%s needs a value: %s", m[1], valueShape(f))
		}
		return msg
	}
	if m := badValueRE().FindStringSubmatch(msg); m != nil {
		if f := fs.Lookup(m[2]); f != nil {
			shape := valueShape(f)
			if _, ok := f.Value.(flag.Getter); !ok {
				shape = msg[len(m[0]):] // the flag's own explanation
			}
			return fmt.Sprintf("-%s %q: %s", m[2], m[1], shape)
		}
	}
	return msg
}

// valueShape says what a value of f looks like.
func valueShape(f *flag.Flag) string {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		arg, _ := flag.UnquoteUsage(f)
		if arg == "" {
			arg = "value"
		}
		return "want " + arg + ": " + firstSentence(f.Usage)
	}
	switch g.Get().(type) {
	case time.Duration:
		return "want a duration such as 5s, 90s or 2m (a number needs its unit: s, m or h)"
	case int, int64, uint, uint64:
		return "want a whole number such as " + exampleNumber(f)
	case float64:
		return "want a number such as 0.5"
	case bool:
		return "want true or false (or the flag alone for true)"
	}
	arg, _ := flag.UnquoteUsage(f)
	if arg == "string" || arg == "" {
		arg = "a value"
	}
	return "want " + arg + ": " + firstSentence(f.Usage)
}

// exampleNumber returns the default of f, or 10, as an example.
func exampleNumber(f *flag.Flag) string {
	if f.DefValue != "" && f.DefValue != "0" {
		return f.DefValue
	}
	return "10"
}

func firstSentence(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if i := strings.Index(s, "; "); i > 0 {
		s = s[:i]
	}
	return s
}

// nearestFlag returns the flag of fs whose name is nearest to name, if
// one is near enough to be what was meant (see nearest.Word).
func nearestFlag(fs *flag.FlagSet, name string) string {
	name = strings.TrimLeft(name, "-")
	if i := strings.IndexByte(name, '='); i >= 0 {
		name = name[:i]
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return nearest.Word(names, name)
}

// checkCounts refuses a negative value of the count flags, which would
// otherwise mean the default or nothing at all.
func checkCounts(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		g, ok := f.Value.(flag.Getter)
		if !ok || err != nil {
			return
		}
		switch v := g.Get().(type) {
		case int:
			if v < 0 {
				err = fmt.Errorf("-%s %d: want 0 or more", f.Name, v)
			}
		case time.Duration:
			if v < 0 {
				err = fmt.Errorf("-%s %s: want 0 (no limit) or more", f.Name, v)
			}
		}
	})
	return err
}
