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
	"github.com/toolreg/toolreg/chat"
	"github.com/toolreg/toolreg/tool"
	"github.com/toolreg/toolreg/toolmcp"
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
			return c.runTools(ctx, args[1:])
		case "call":
			return c.runCall(ctx, args[1:])
		case "mcp":
			return c.runMCP(ctx, args[1:])
		}
	}
	return c.runChat(ctx, args)
}

// selection holds the -tools and -disable flags, which default to the
// TOOLREG_TOOLS and TOOLREG_DISABLE environment variables.
type selection struct {
	keep, drop, deny string
	// mounts are the -mcp specs of remote MCP servers whose tools join.
	mounts specList
}

// specList collects the values of a repeated flag, checking each.
type specList []string

func (l *specList) String() string { return strings.Join(*l, " ") }

func (l *specList) Set(v string) error {
	if _, err := toolmcp.ParseSpec(v); err != nil {
		return err
	}
	*l = append(*l, v)
	return nil
}

func (s *selection) register(fs *flag.FlagSet, getenv env) {
	fs.StringVar(&s.keep, "tools", getenv("TOOLREG_TOOLS"), "comma-separated tool `ids` to offer (default all; env TOOLREG_TOOLS)")
	fs.StringVar(&s.drop, "disable", getenv("TOOLREG_DISABLE"), "comma-separated tool `ids` to leave out (env TOOLREG_DISABLE)")
	fs.StringVar(&s.deny, "deny", getenv("TOOLREG_DENY"), "leave out every tool with one of these comma-separated `capabilities`: exec, network, write_files, read_files, env, unsafe (env TOOLREG_DENY)")
}

// registerMounts adds the -mcp flag.
func (s *selection) registerMounts(fs *flag.FlagSet) {
	fs.Var(&s.mounts, "mcp", "mount the tools of an MCP server as NAME__tool: `NAME=COMMAND ARGS…` (stdio) or NAME=https://… (streamable HTTP); repeatable")
}

// mount connects to the -mcp servers; a server that cannot be reached is
// left out with a message on warn. It returns nil when there are none.
func (s *selection) mount(ctx context.Context, reserved []string, warn io.Writer) (*toolmcp.Mounts, error) {
	if len(s.mounts) == 0 {
		return nil, nil
	}
	m, err := toolmcp.Mount(ctx, s.mounts, &toolmcp.MountOptions{Warn: warn, Stderr: warn, Reserved: reserved})
	if err != nil {
		return nil, fmt.Errorf("-mcp: %w", err)
	}
	return m, nil
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

func (c *cli) runTools(ctx context.Context, args []string) int {
	stdout, stderr := c.stdout, c.stderr
	fs := flag.NewFlagSet("agent tools", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the exact tools spec table sent to the model")
	verbose := fs.Bool("v", false, "also show each tool's id, timeout, capabilities, source file and parameters")
	var sel selection
	sel.register(fs, c.getenv)
	sel.registerMounts(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: agent tools [-json] [-v] [-tools ids] [-disable ids] [-deny caps] [-mcp NAME=SERVER]")
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
	mounts, err := sel.mount(ctx, reg.Names(), stderr)
	if err != nil {
		fmt.Fprintf(stderr, "agent: %v\n", err)
		return 2
	}
	defer closeMounts(mounts)
	if *asJSON {
		b, err := json.MarshalIndent(toolset(reg, mounts).Specs(), "", "  ")
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
	if mounts != nil {
		for _, rt := range mounts.Tools() {
			fmt.Fprintf(tw, "%s\t%s [remote: %s, not audited]\n", rt.Name, firstLine(rt.Description), rt.Server)
			if *verbose {
				fmt.Fprintf(tw, "\tserver: %s, tool: %s\n", rt.Server, rt.Remote)
				fmt.Fprintf(tw, "\tparameters: %s\n", rt.InputSchema)
			}
		}
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(stderr, "agent: %v\n", err)
		return 1
	}
	return 0
}

func closeMounts(m *toolmcp.Mounts) {
	if m != nil {
		_ = m.Close() // the servers are going away with the process
	}
}

// toolset is what the model is offered: the compiled-in tools, and those
// of the mounted MCP servers, if any.
func toolset(reg *toolreg.Registry, mounts *toolmcp.Mounts) chat.Tools {
	if mounts == nil {
		return reg
	}
	return toolmcp.NewToolset(reg, mounts)
}

// firstLine returns the first sentence or line of a description.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return s
}

func (c *cli) runCall(ctx context.Context, args []string) int {
	stdin, stdout, stderr := c.stdin, c.stdout, c.stderr
	fs := flag.NewFlagSet("agent call", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sel selection
	sel.register(fs, c.getenv)
	sel.registerMounts(fs)
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
	mounts, err := sel.mount(ctx, reg.Names(), stderr)
	if err != nil {
		fmt.Fprintf(stderr, "agent: %v\n", err)
		return 2
	}
	defer closeMounts(mounts)
	res := toolset(reg, mounts).Call(ctx, name, argText)
	if res.Failed() {
		fmt.Fprintln(stderr, res.Text)
		return 1
	}
	fmt.Fprintln(stdout, res.Text)
	return 0
}
