package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"time"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// Handler runs the tool id with its JSON arguments, in a worker, and
// returns the tool's answer.
type Handler func(ctx context.Context, id string, args []byte) (string, error)

// Worker is the worker side of a Pool: what Serve needs to run tools.
type Worker struct {
	// Handler runs the tools. Required.
	Handler Handler
	// Classify says whether a Handler error is registry.KindArguments,
	// KindTool or KindPanic; every error is KindTool when it is nil or
	// answers another kind.
	Classify func(error) registry.Kind
	// Logger receives the worker's own messages (on its stderr, which
	// the pool forwards to its log); slog.Default() when nil.
	Logger *slog.Logger
}

// The file descriptors of a worker's pipes, as the pool passes them
// (exec.Cmd.ExtraFiles).
const (
	requestFD  = 3
	responseFD = 4
)

// hello is the first frame of a worker: what it enforces, or why it
// could not restrict itself.
type hello struct {
	Enforcement
	Error string `json:"error,omitempty"`
	// NoNamespaces says that Error comes from namespaces that cannot
	// work on this machine (errProcRefused): the pool starts its workers
	// without them from then on, as where the kernel refuses them.
	NoNamespaces bool `json:"no_namespaces,omitempty"`
}

// errProcRefused: a worker in namespaces of its own could not mount the
// /proc of its PID namespace, which the kernel refuses where parts of
// the host's /proc are covered (as some containers do).
var errProcRefused = errors.New("mounting a /proc of the worker's PID namespace")

// Serve runs the worker side of a Pool: the program calls it, before
// anything else, when its first argument is the hidden argument the
// pool was configured with, and passes the arguments after it. Serve
// first does what every worker does whatever its tool (see prepare):
// it closes every descriptor it inherited but its pipes and standard
// streams, isolates its mounts, sets its limits and drops every
// capability. It then waits for the pool to name its one tool and that
// tool's capabilities (a worker started ahead waits here), restricts
// itself for good to those capabilities (see Enforcement), reports
// what it enforces, and runs one request at a time, for that tool,
// until the pool closes the request pipe (it returns nil) or ctx is
// done. After each call it ends every process the call started (in its
// own PID namespace). A worker that cannot restrict itself reports why
// and accepts no work.
func Serve(ctx context.Context, args []string, w Worker) error {
	in := os.NewFile(requestFD, "requests")
	out := os.NewFile(responseFD, "responses")
	if in == nil || out == nil {
		return errors.New("sandbox worker: the request and response pipes are missing (fds 3 and 4)")
	}
	defer in.Close()
	defer out.Close()
	return serve(ctx, args, newWorkerPipe(in), newWorkerPipe(out), w)
}

func serve(ctx context.Context, args []string, in, out *workerPipe, w Worker) error {
	if w.Handler == nil {
		return errors.New("sandbox worker: no Handler")
	}
	log := w.Logger
	if log == nil {
		log = slog.Default()
	}
	// Asked of the C runtime (see boundingEnv); not for the tool's
	// programs.
	_ = os.Unsetenv(boundingEnv)
	r := bufio.NewReaderSize(in, 64<<10)
	var rbuf []byte
	s, err := parseSpec(args)
	var h hello
	var p prepared
	if err == nil {
		err = closeInherited()
	}
	if err == nil {
		p, err = prepare(s)
	}
	if err == nil {
		// Until here nothing depended on the tool: a worker started ahead
		// says so and waits here for the pool to give it one.
		if _, werr := writeFrame(out, nil, []byte{frameReady}); werr != nil {
			return fmt.Errorf("sandbox worker: writing ready: %w", werr)
		}
		rbuf, err = readFrame(r, rbuf)
		if errors.Is(err, io.EOF) {
			return nil // the pool ended before it needed this worker
		}
		if err == nil {
			err = s.assign(rbuf)
		} else {
			err = fmt.Errorf("reading the assignment: %w", err)
		}
	}
	if err == nil {
		h.Enforcement, err = p.confine(s)
	}
	if err != nil {
		h.Error = err.Error()
		h.NoNamespaces = errors.Is(err, errProcRefused)
	}
	body, jerr := json.Marshal(h)
	if jerr != nil {
		return fmt.Errorf("sandbox worker: encoding hello: %w", jerr)
	}
	if _, werr := writeFrame(out, nil, []byte{frameHello}, body); werr != nil {
		return fmt.Errorf("sandbox worker: writing hello: %w", werr)
	}
	if err != nil {
		return fmt.Errorf("sandbox worker: %w", err)
	}

	// From here on the worker only serves its tool's calls, one at a
	// time: its pipes go direct (see workerPipe).
	in.makeDirect()
	out.makeDirect()
	// Without tool.Exec, the seccomp filter lets no call start a process:
	// there is nothing to end after it.
	leftovers := s.caps&tool.Exec != 0 || !h.Seccomp
	pw := &progressWriter{out: out}
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rbuf, err = readFrame(r, rbuf)
		if errors.Is(err, io.EOF) {
			return nil // the pool is done with this worker
		}
		if err != nil {
			return fmt.Errorf("sandbox worker: reading a request: %w", err)
		}
		req, err := parseRequest(rbuf)
		if err != nil {
			return fmt.Errorf("sandbox worker: %w", err)
		}
		var kind registry.Kind
		var text string
		if req.id != s.toolID {
			// A worker serves one tool: no tool sees another's calls.
			kind, text = registry.KindArguments, fmt.Sprintf("this worker serves tool %q only, not %q", s.toolID, req.id)
		} else {
			pw.start()
			kind, text = w.run(withProgress(ctx, pw), log, req)
			if leftovers {
				endLeftovers()
			}
		}
		if len(text) > maxFrame-2 {
			kind, text = registry.KindTool, fmt.Sprintf("the answer of %d bytes is over the worker's limit of %d", len(text), maxFrame-2)
		}
		if req.release {
			in.release()
		}
		if err := pw.respond(kind, text); err != nil {
			return fmt.Errorf("sandbox worker: writing a response: %w", err)
		}
	}
}

type outcome struct {
	kind registry.Kind // 0 for success
	text string
}

// run calls the handler in a goroutine of its own, so that a recovered
// panic or runtime.Goexit ends that goroutine and not the worker.
func (w Worker) run(ctx context.Context, log *slog.Logger, req request) (registry.Kind, string) {
	if req.deadline != 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, time.Unix(0, req.deadline))
		defer cancel()
	}
	done := make(chan outcome, 1)
	go func() {
		returned := false
		defer func() {
			if returned {
				return
			}
			if v := recover(); v != nil {
				log.Error("tool panicked", "tool", req.id, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				done <- outcome{registry.KindPanic, fmt.Sprint(v)}
				return
			}
			done <- outcome{registry.KindPanic, "the tool ended its goroutine with runtime.Goexit"}
		}()
		text, err := w.Handler(ctx, req.id, req.args)
		returned = true
		if err != nil {
			k := registry.KindTool
			if w.Classify != nil {
				if c := w.Classify(err); workerKind(c) {
					k = c
				}
			}
			done <- outcome{k, err.Error()}
			return
		}
		done <- outcome{0, text}
	}()
	// A tool may block for good, and only the pool ends its call. Without
	// cgo, the runtime calls a process whose every goroutine is blocked,
	// with no timer pending, deadlocked and exits: a timer keeps the
	// worker waiting for the pool instead.
	wait := time.NewTicker(time.Hour)
	defer wait.Stop()
	for {
		select {
		case o := <-done:
			return o.kind, o.text
		case <-wait.C:
		}
	}
}
