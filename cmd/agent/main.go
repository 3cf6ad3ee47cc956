// Agent is a chat agent whose tools are compiled in: ask it something, and
// it answers, calling tools from toolbox/ as the model asks for them.
//
// Usage:
//
//	agent [flags] "question"   one question, the answer on stdout
//	echo question | agent       the question from stdin
//	agent                       a conversation on a terminal
//	agent tools [-json] [-v]    list the tools (offline)
//	agent call NAME JSON|-      run one tool (offline)
//
// The model is any OpenAI-compatible endpoint, configured by LLM_BASE_URL,
// LLM_API_KEY and LLM_MODEL; see the README for the flags and providers.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == workerArg {
		os.Exit(runWorker(os.Args[2:], os.Stderr))
	}
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	c := &cli{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, interrupts: interrupts}
	if cmd, _ := c.splitCommand(os.Args[1:]); cmd == "mcp" {
		// A server drains its calls on SIGTERM, as on Ctrl-C.
		terminate := make(chan os.Signal, 1)
		signal.Notify(terminate, syscall.SIGTERM)
		c.terminate = terminate
	}
	os.Exit(c.run(context.Background(), os.Args[1:]))
}
