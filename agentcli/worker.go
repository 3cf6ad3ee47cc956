package agentcli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/toolreg/toolreg/egress"
	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/sandbox"
	"github.com/toolreg/toolreg/tool"
)

// workerArg is the hidden first argument that makes the agent a tool
// worker (see package sandbox); main and the tests check it before
// anything else.
const workerArg = "__toolreg_worker"

// runWorker serves the compiled-in tools as a sandboxed worker.
func runWorker(args []string, stderr io.Writer, t CompiledTools) int {
	// The operator's egress allow list reaches the worker in its
	// environment (see isolate); tools find it in their context.
	policy, err := egress.Parse(os.Getenv(egress.EnvAllow))
	if err != nil {
		fmt.Fprintf(stderr, "agent worker: %v\n", err)
		return 1
	}
	ctx := egress.WithPolicy(context.Background(), policy)
	reg, err := compiledIn(t)
	if err != nil {
		fmt.Fprintf(stderr, "agent worker: %v\n", err)
		return 1
	}
	if err := sandbox.ServeRegistry(ctx, args, reg); err != nil {
		fmt.Fprintf(stderr, "agent worker: %v\n", err)
		return 1
	}
	return 0
}

// isolate runs the compiled-in tools of reg in sandboxed workers as the
// -isolate mode says, and returns the registry and the function that
// stops the workers. Without a logger, warnings (restrictions the kernel
// cannot enforce, a worker that died) go to warn.
func (s *selection) isolate(reg *registry.Registry, warn io.Writer, logger *slog.Logger) (*registry.Registry, func(), error) {
	mode, err := sandbox.ParseIsolation(s.isolation)
	if err != nil {
		return nil, nil, fmt.Errorf("-isolate: %w", err)
	}
	if mode == sandbox.IsolateNone {
		return reg, func() {}, nil
	}
	if err := cmp.Or(s.workersErr, s.memoryErr); err != nil {
		return nil, nil, err
	}
	// The state directory is made now if it is not there yet, so that it
	// is hidden from the first worker on: the pool hides what exists,
	// and the agent may keep a conversation or a token there later. A
	// listing makes it too: what it says a worker would enforce is then
	// what the first call's worker does.
	hide := s.hidden()
	for _, d := range hide {
		_ = os.MkdirAll(d, 0o700)
	}
	if s.listOnly {
		// The workspace is checked as the pool would check it, and the
		// agent made undumpable as the pool would make it: the servers
		// of -mcp run beside it as the same user.
		if s.workDir != "" {
			if fi, err := os.Stat(s.workDir); err != nil {
				return nil, nil, fmt.Errorf("-workdir: %w", err)
			} else if !fi.IsDir() {
				return nil, nil, fmt.Errorf("-workdir: %s is not a directory", s.workDir)
			}
		}
		if err := sandbox.Undumpable(); err != nil {
			return nil, nil, err
		}
		return reg, func() {}, nil
	}
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(warn, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	pool, err := sandbox.NewPool(sandbox.Config{
		Arg:        workerArg,
		WorkDir:    s.workDir,
		Env:        s.tools.Env,
		Environ:    withVar(os.Environ(), egress.EnvAllow, s.netAllow),
		Pass:       []string{egress.EnvAllow},
		Require:    s.require,
		MaxWorkers: int(s.workers),
		Limits:     sandbox.Limits{Memory: int64(s.memory)},
		Hide:       hide,
		Protect:    s.protect,
		NoWriters:  !writes(reg.Tools(), mode),
		Logger:     logger,
	})
	if err != nil {
		return nil, nil, err
	}
	if !s.warm {
		return reg.WithExecutor(pool.Executor(mode)), func() { _ = pool.Close() }, nil
	}
	// A server or a conversation starts workers ahead once it answers
	// (startWarmUp), so that their starts do not delay its first answer:
	// a spare for no tool in particular, so that a tool's first call, or
	// one more worker for a busy tool, waits only for its restrictions;
	// and a worker for each of its first tools, half the workers at most,
	// the rest kept for the calls. Those are started from spawn
	// (Prestart), so that the spare stays for the first call of a tool
	// that has none yet. A single call (agent call, a one-shot question)
	// starts only what it needs.
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	var ahead sync.WaitGroup
	s.warmUp = func() {
		once.Do(func() {
			pool.SetSpares(1)
			ahead.Go(func() {
				n := 0
				for _, e := range reg.Tools() {
					if n >= int(s.workers)/2 || ctx.Err() != nil {
						return
					}
					if !mode.Isolated(e) {
						continue
					}
					if err := pool.Prestart(ctx, e.ID, e.AllCapabilities()); err != nil {
						logger.Debug("starting a tool worker ahead", "tool", e.ID, "error", err)
					}
					n++
				}
			})
		})
	}
	stop := func() {
		once.Do(func() {}) // no warm-up starts from here on
		cancel()
		ahead.Wait()
		_ = pool.Close()
	}
	return reg.WithExecutor(pool.Executor(mode)), stop, nil
}

// startWarmUp starts the workers that the selection's -isolate mode
// starts ahead (see isolate), if it does; once is enough, more are
// harmless.
func (s *selection) startWarmUp() {
	if s.warmUp != nil {
		s.warmUp()
	}
}

// withVar returns environ with the variable name set to value, or left
// out when value is empty.
func withVar(environ []string, name, value string) []string {
	out := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		if k, _, _ := strings.Cut(kv, "="); k != name {
			out = append(out, kv)
		}
	}
	if value != "" {
		out = append(out, name+"="+value)
	}
	return out
}

// hidden lists what no tool sees: the agent's state directory, which
// holds the OAuth tokens of its MCP servers and the conversations it
// kept.
func (s *selection) hidden() []string {
	if s.stateDir == nil {
		return nil
	}
	d, err := s.stateDir()
	if err != nil {
		return nil
	}
	return []string{d}
}

// writes reports whether one of tools that mode runs in a worker may
// write files: only then does the pool search the workspace for nested
// repositories as it is made (sandbox.Config.NoWriters).
func writes(tools []registry.Entry, mode sandbox.Isolation) bool {
	return slices.ContainsFunc(tools, func(e registry.Entry) bool {
		return mode.Isolated(e) && e.AllCapabilities()&tool.WriteFiles != 0
	})
}
