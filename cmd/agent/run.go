package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/toolreg/toolreg"
	"github.com/toolreg/toolreg/tool"
)

// env looks up an environment variable; os.Getenv in main.
type env func(string) string

// cli is the process's view of the world, replaced in tests.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         env
	// interrupts delivers Ctrl-C; nil when there is no terminal to
	// interrupt from (tests).
	interrupts <-chan os.Signal
}

// run is the command line; it returns the exit status.
func (c *cli) run(ctx context.Context, args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "tools":
			return runTools(args[1:], c.stdout, c.stderr, c.getenv)
		case "call":
			return runCall(ctx, args[1:], c.stdin, c.stdout, c.stderr, c.getenv)
		}
	}
	return c.runChat(ctx, args)
}

// selection holds the -tools and -disable flags, which default to the
// TOOLREG_TOOLS and TOOLREG_DISABLE environment variables.
type selection struct {
	keep, drop, deny string
}

func (s *selection) register(fs *flag.FlagSet, getenv env) {
	fs.StringVar(&s.keep, "tools", getenv("TOOLREG_TOOLS"), "comma-separated tool `ids` to offer (default all; env TOOLREG_TOOLS)")
	fs.StringVar(&s.drop, "disable", getenv("TOOLREG_DISABLE"), "comma-separated tool `ids` to leave out (env TOOLREG_DISABLE)")
	fs.StringVar(&s.deny, "deny", getenv("TOOLREG_DENY"), "leave out every tool with one of these comma-separated `capabilities`: exec, network, write_files, read_files, env, unsafe (env TOOLREG_DENY)")
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// registry returns the compiled-in tools, narrowed by the selection.
func (s *selection) registry() (*toolreg.Registry, error) {
	r, err := toolreg.Toolbox().Select(splitList(s.keep), splitList(s.drop))
	if err != nil {
		return nil, fmt.Errorf("tool selection: %w", err)
	}
	if s.deny != "" {
		caps, ok := tool.ParseCapabilities(s.deny)
		if !ok {
			return nil, fmt.Errorf("-deny %q: want capabilities from exec, network, write_files, read_files, env, unsafe", s.deny)
		}
		r = r.WithoutCapabilities(caps)
	}
	return r, nil
}

func runTools(args []string, stdout, stderr io.Writer, getenv env) int {
	fs := flag.NewFlagSet("agent tools", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the exact tools spec table sent to the model")
	verbose := fs.Bool("v", false, "also show each tool's id, timeout, capabilities, source file and parameters")
	var sel selection
	sel.register(fs, getenv)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: agent tools [-json] [-v] [-tools ids] [-disable ids]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "agent tools: unexpected arguments %q\n", fs.Args())
		return 2
	}
	reg, err := sel.registry()
	if err != nil {
		fmt.Fprintf(stderr, "agent: %v\n", err)
		return 2
	}
	if *asJSON {
		b, err := json.MarshalIndent(reg.Specs(), "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "agent: encode the spec table: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, e := range reg.Tools() {
		fmt.Fprintf(tw, "%s\t%s\n", e.Name, firstLine(e.Description))
		if *verbose {
			fmt.Fprintf(tw, "\tid: %s, timeout: %s, file: %s\n", e.ID, e.Timeout, e.File)
			fmt.Fprintf(tw, "\tcapabilities: %s (found in its code: %s)\n", e.Capabilities, e.Reaches)
			fmt.Fprintf(tw, "\tparameters: %s\n", e.Parameters)
		}
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(stderr, "agent: %v\n", err)
		return 1
	}
	return 0
}

// firstLine returns the first sentence or line of a description.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return s
}

func runCall(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv env) int {
	fs := flag.NewFlagSet("agent call", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sel selection
	sel.register(fs, getenv)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: agent call [-tools ids] [-disable ids] NAME 'JSON'   (or - to read the arguments from stdin)")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fs.Usage()
		return 2
	}
	name, argText := fs.Arg(0), "{}"
	if fs.NArg() == 2 {
		argText = fs.Arg(1)
	}
	if argText == "-" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "agent: read arguments from stdin: %v\n", err)
			return 1
		}
		argText = string(b)
	}
	reg, err := sel.registry()
	if err != nil {
		fmt.Fprintf(stderr, "agent: %v\n", err)
		return 2
	}
	res := reg.Call(ctx, name, argText)
	if res.Failed() {
		fmt.Fprintln(stderr, res.Text)
		return 1
	}
	fmt.Fprintln(stdout, res.Text)
	return 0
}
