package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"

	"github.com/toolreg/toolreg/toolmcp"
)

// runMCP serves the selected tools to MCP clients: over stdio, or over
// streamable HTTP in stateless mode with -http.
func (c *cli) runMCP(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("agent mcp", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	addr := fs.String("http", "", "serve streamable HTTP on this `address` (for example :8080) instead of stdio")
	verbose := fs.Bool("v", false, "log calls, panics and timeouts on stderr")
	var sel selection
	sel.register(fs, c.getenv)
	sel.registerMounts(fs)
	fs.Usage = func() {
		fmt.Fprintln(c.stderr, "usage: agent mcp [-http ADDR] [-tools ids] [-disable ids] [-deny caps] [-mcp NAME=SERVER] [-v]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(c.stderr, "agent mcp: unexpected arguments %q\n", fs.Args())
		return 2
	}
	// Logs go to stderr: on stdio, stdout carries the protocol.
	logger := slog.New(slog.DiscardHandler)
	if *verbose {
		logger = slog.New(slog.NewTextHandler(c.stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	reg, closeTools, err := sel.toolSet(ctx, c.stderr, logger)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 2
	}
	defer closeTools()
	srv, err := toolmcp.NewServer(reg, &toolmcp.ServerOptions{Logger: logger})
	if err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 1
	}
	ctx, stop := c.interruptible(ctx)
	defer stop()
	if *addr == "" {
		err = toolmcp.ServeStdio(ctx, srv, c.stdin, c.stdout)
	} else {
		var ln net.Listener
		ln, err = net.Listen("tcp", *addr)
		if err != nil {
			fmt.Fprintf(c.stderr, "agent: %v\n", err)
			return 1
		}
		fmt.Fprintf(c.stderr, "agent: serving %d tools over MCP at http://%s/\n", len(reg.Names()), ln.Addr())
		err = toolmcp.ServeHTTP(ctx, ln, srv, logger)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 1
	}
	return 0
}
