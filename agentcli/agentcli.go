// Package agentcli is the agent command as a library: the chat and tool
// loop, agent tools, call, skills and mcp, with their flags, over the
// tools it is given. cmd/agent is its main with this repository's
// toolbox; a module with a toolbox of its own gets the same agent with a
// main of its own:
//
//	func main() {
//		os.Exit(agentcli.Main(agentcli.CompiledTools{
//			Toolbox: mytools.Toolbox,
//			Skills:  mytools.Skills,
//			Env:     []string{"MYTOOLS_URL", "MYTOOLS_KEY"},
//			Secrets: []string{"MYTOOLS_KEY"},
//		}))
//	}
//
// The agent's code does not depend on the tools, so editing a tool
// recompiles the tool package, the generated registry and that main, not
// the agent.
package agentcli

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/skill"
)

// CompiledTools are the compiled-in tools the agent offers: what toolgen
// generates for a toolbox.
type CompiledTools struct {
	// Toolbox returns the registry of the tools, as the generated
	// Toolbox function does.
	Toolbox func() *registry.Registry
	// Skills returns the skills, as the generated Skills function does;
	// nil for none.
	Skills func() *skill.Set
	// Env names the environment variables the tools are configured with:
	// a sandboxed worker whose tools declare tool.Env gets them, and no
	// others (by default every tool runs in a worker).
	Env []string
	// Secrets names those variables whose values are secrets, such as
	// API keys: the agent never shows them, on stderr, in -json events or
	// in tool results, as it never shows its own (LLM_API_KEY, the MCP
	// token).
	Secrets []string
}

// skills returns t's skills; nil, which holds none, when it has none.
func (t CompiledTools) skills() *skill.Set {
	if t.Skills == nil {
		return nil
	}
	return t.Skills()
}

// Main runs the agent over t with the process's arguments, standard
// streams, environment and signals, and returns its exit code. A process
// started as a sandboxed worker (see package sandbox) serves t's tools
// instead.
func Main(t CompiledTools) int {
	if len(os.Args) > 1 && os.Args[1] == workerArg {
		return runWorker(os.Args[2:], os.Stderr, t)
	}
	if len(os.Args) > 1 && os.Args[1] == mcpEnvArg {
		return runMCPEnv(os.Args[2:])
	}
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	c := &cli{tools: t, stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, interrupts: interrupts}
	if cmd, _ := c.splitCommand(os.Args[1:]); cmd == "mcp" {
		// A server drains its calls on SIGTERM, as on Ctrl-C.
		terminate := make(chan os.Signal, 1)
		signal.Notify(terminate, syscall.SIGTERM)
		c.terminate = terminate
		if percent, ok := serverGCPercent(os.Getenv); ok {
			debug.SetGCPercent(percent)
		}
	}
	return c.run(context.Background(), os.Args[1:])
}

// serverGCPercent returns the garbage collector's target for agent mcp,
// and false when the environment sets one (GOGC), which stays. The
// server's live heap is about a megabyte, and the MCP SDK allocates
// about 300 kB a call (a 32 kB buffer for each JSON value it decodes),
// so at Go's default of 100 it collects every five calls or so: at 200,
// half as often, it answers 1.4 times the calls a second in process and
// 1.2 times with workers, for 4.5-6.5 MiB more at the peak of a load of
// 20 sessions and nothing more at idle (BENCHMARKS.md, "agent mcp under
// load"). SetGCPercent sets no variable: workers keep Go's default
// unless GOGC is in the environment, which they are given with the
// runtime's other variables (see sandbox's workerEnv).
func serverGCPercent(getenv func(string) string) (int, bool) {
	if getenv("GOGC") != "" {
		return 0, false
	}
	return 200, true
}
