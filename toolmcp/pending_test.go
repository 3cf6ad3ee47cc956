package toolmcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMountPendingRepliesBounded: the client reads at most maxReplies
// requests of a stdio server that it has not answered. A server that
// sent pings and read none of the answers had the client hold a
// goroutine for each answer, as many as it sent.
func TestMountPendingRepliesBounded(t *testing.T) {
	const pings = 2000
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	sc, err := st.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	var written atomic.Int64
	flooded := make(chan struct{})
	go func() {
		defer close(flooded)
		// The handshake (of a server that does not know server/discover),
		// then pings, none of whose answers is read.
		var init *jsonrpc.Request
		for init == nil {
			msg, err := sc.Read(ctx)
			if err != nil {
				return
			}
			req, ok := msg.(*jsonrpc.Request)
			switch {
			case !ok || !req.IsCall():
				t.Errorf("the client's message before initialize: %#v", msg)
				return
			case req.Method == "initialize":
				init = req
			default:
				if err := sc.Write(ctx, &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "no " + req.Method}}); err != nil {
					return
				}
			}
		}
		result, _ := json.Marshal(map[string]any{
			"protocolVersion": "2025-06-18",
			"capabilities":    map[string]any{},
			"serverInfo":      map[string]any{"name": "flood", "version": "1"},
		})
		if err := sc.Write(ctx, &jsonrpc.Response{ID: init.ID, Result: result}); err != nil {
			return
		}
		if _, err := sc.Read(ctx); err != nil { // notifications/initialized
			return
		}
		for i := range pings {
			id, _ := jsonrpc.MakeID(float64(i + 1000))
			if err := sc.Write(ctx, &jsonrpc.Request{ID: id, Method: "ping"}); err != nil {
				return
			}
			written.Add(1)
		}
	}()
	before := runtime.NumGoroutine()
	connectCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cs, err := newMountClient(nil).Connect(connectCtx, &sniffTransport{Transport: ct, tasks: &taskTools{}}, nil)
	if err != nil {
		sc.Close()
		t.Fatal(err)
	}
	// The pings the client reads are written at once (the SDK reads one
	// ahead, and holds one it read), the others wait.
	select {
	case <-flooded:
	case <-time.After(2 * time.Second):
	}
	n, grown := written.Load(), runtime.NumGoroutine()-before
	sc.Close() // the client's answers in flight fail, and its Close returns
	cs.Close()
	<-flooded
	if n > maxReplies+2 || grown > 2*maxReplies+10 {
		t.Errorf("the client read %d pings it had not answered, and holds %d goroutines more; want at most %d pings", n, grown, maxReplies+2)
	}
}

// TestPendingReplies: a request read counts until its answer is written;
// one whose id is pending already is not counted again.
func TestPendingReplies(t *testing.T) {
	t.Parallel()
	p := newPendingReplies()
	id := func(n int64) jsonrpc.ID { i, _ := jsonrpc.MakeID(float64(n)); return i }
	ctx := context.Background()
	for i := range int64(maxReplies - 1) {
		p.add(id(i))
	}
	p.add(id(0)) // pending already
	if err := p.wait(ctx); err != nil {
		t.Fatalf("wait below the bound: %v", err)
	}
	p.add(id(maxReplies))
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if err := p.wait(short); err == nil {
		t.Fatal("wait at the bound returned at once")
	}
	p.done(id(999)) // never read: frees nothing
	done := make(chan error, 1)
	go func() { done <- p.wait(ctx) }()
	p.done(id(3))
	if err := <-done; err != nil {
		t.Fatalf("wait after an answer: %v", err)
	}
	p.add(id(3))
	p.close()
	if err := p.wait(ctx); err != mcp.ErrConnectionClosed {
		t.Fatalf("wait after close: %v, want %v", err, mcp.ErrConnectionClosed)
	}
}

// floodServer is a stdio server that lists one tool, then sends pings
// and reads nothing more: not the client's answers, nor the end of its
// stdin.
func floodServer(stdin io.Reader, stdout io.Writer) error {
	sc := bufio.NewScanner(stdin)
	sc.Buffer(nil, 1<<20)
	write := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		_, err = stdout.Write(append(b, '\n'))
		return err
	}
	for sc.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			return err
		}
		if req.ID == nil {
			continue // a notification
		}
		var err error
		switch req.Method {
		case "initialize":
			err = write(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{
				"protocolVersion": "2025-06-18",
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": "flood", "version": "1"},
			}})
		case "tools/list":
			err = write(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{
				"tools": []any{map[string]any{"name": "x", "inputSchema": map[string]any{"type": "object"}}},
			}})
			for i := 0; i < 5000 && err == nil; i++ {
				err = write(map[string]any{"jsonrpc": "2.0", "id": fmt.Sprintf("p%d", i), "method": "ping"})
			}
			time.Sleep(time.Hour) // reads nothing more
		default:
			err = write(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "no " + req.Method}})
		}
		if err != nil {
			return err
		}
	}
	return sc.Err()
}

// TestMountCloseFlooded: Close ends the session of a stdio server that
// reads none of the client's answers to its pings. The SDK closes the
// connection only once the answers it is writing are written: Close did
// not return (the agent could not exit), where the pipe filled before
// Close; Close now closes the connection after TerminateWait.
func TestMountCloseFlooded(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	m := mount(t, []string{"f=env " + serverEnv + "=flood " + shellQuote(exe)}, &MountOptions{TerminateWait: 100 * time.Millisecond})
	if len(m.Tools()) != 1 {
		t.Fatalf("%d tools mounted, want 1", len(m.Tools()))
	}
	// The pings are read, the answers wait: then Close.
	time.Sleep(200 * time.Millisecond)
	closed := make(chan error, 1)
	go func() { closed <- m.Close() }()
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatal("Close did not return in a minute")
	}
}
