package sandbox

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolreg/toolreg/registry"
)

// Isolation says which of a registry's compiled-in tools run in workers.
type Isolation uint8

// The isolation modes, as -isolate names them.
const (
	// IsolateNone runs every tool in the calling process.
	IsolateNone Isolation = iota
	// IsolateCapable runs in workers the tools that have any capability,
	// and in process those the audit found pure.
	IsolateCapable
	// IsolateAll runs every compiled-in tool in a worker: any runaway
	// tool can then be killed.
	IsolateAll
)

var isolationNames = [...]string{IsolateNone: "none", IsolateCapable: "capable", IsolateAll: "all"}

// String returns the mode's name.
func (m Isolation) String() string {
	if int(m) < len(isolationNames) {
		return isolationNames[m]
	}
	return fmt.Sprintf("isolation(%d)", uint8(m))
}

// ParseIsolation reads "all", "capable" or "none".
func ParseIsolation(s string) (Isolation, error) {
	for i, n := range isolationNames {
		if s == n {
			return Isolation(i), nil
		}
	}
	return 0, fmt.Errorf("isolation %q: want all, capable or none", s)
}

// Isolated reports whether a tool with entry e runs in a worker in mode m.
func (m Isolation) Isolated(e registry.Entry) bool {
	if e.Server != "" {
		return false // a mounted tool runs in its server
	}
	return m == IsolateAll || (m == IsolateCapable && e.AllCapabilities() != 0)
}

// Executor returns a registry.Executor that runs the tools m isolates in
// p's workers, restricted to each tool's capabilities (declared and
// found), and the others in process. Arguments are bound in process first
// (decoded and checked, without running the tool), so a bad call never
// reaches a worker and gets the same error, and the same repairs, as in
// process; the worker binds them again and runs the tool.
func (p *Pool) Executor(m Isolation) registry.Executor {
	return executor{p, m}
}

type executor struct {
	pool *Pool
	mode Isolation
}

// Isolates implements registry.Isolator: the calls of the tools that
// the isolation mode puts in workers end when their context does (the
// worker is killed).
func (x executor) Isolates(e registry.Entry) bool { return x.mode.Isolated(e) }

// Execute implements registry.Executor.
func (x executor) Execute(ctx context.Context, e registry.Entry, args string) (string, error) {
	run, err := e.Bind(args)
	if err != nil {
		return "", err
	}
	if !x.mode.Isolated(e) {
		return run(ctx)
	}
	text, err := x.pool.Call(ctx, e.ID, e.AllCapabilities(), []byte(args))
	return text, registryError(err)
}

// registryError hands a pool's error to the registry without the tool's
// id, so that the registry names the tool as the call did; a timeout or
// cancellation becomes its cause, the context's error, which the registry
// reports as its own.
func registryError(err error) error {
	var e *registry.Error
	if err == nil || !errors.As(err, &e) {
		return err
	}
	if e.Kind == registry.KindTimeout || e.Kind == registry.KindCancelled {
		return e.Err
	}
	c := *e
	c.Tool = ""
	return &c
}

// ServeRegistry is Serve for the compiled-in tools of r, by id: the
// worker side of Pool.Executor.
func ServeRegistry(ctx context.Context, args []string, r *registry.Registry) error {
	tools := map[string]registry.Entry{}
	for _, e := range r.Tools() {
		if e.Server == "" {
			tools[e.ID] = e
		}
	}
	return Serve(ctx, args, Worker{
		Handler: func(ctx context.Context, id string, args []byte) (string, error) {
			e, ok := tools[id]
			if !ok {
				return "", fmt.Errorf("this worker has no compiled-in tool with id %q", id)
			}
			run, err := e.Bind(string(args))
			if err != nil {
				return "", err
			}
			return run(ctx)
		},
		Classify: func(err error) registry.Kind {
			var e *registry.Error
			if errors.As(err, &e) {
				return e.Kind
			}
			return registry.KindTool
		},
	})
}
