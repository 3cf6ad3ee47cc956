package main

import (
	"context"
	"fmt"
	"io"
)

// runChat is replaced when the chat loop is wired in.
func runChat(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv env) int {
	fmt.Fprintln(stderr, "agent: the chat loop is not wired in yet; use agent tools or agent call")
	return 2
}
