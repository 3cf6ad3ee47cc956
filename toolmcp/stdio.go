package toolmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
)

// drain lets a stdio session finish the requests it has read before the
// end of its input ends it, so that a client that writes its requests and
// closes its end (a script, a pipe) still gets every answer. It watches the
// newline-delimited JSON-RPC messages going both ways: the reader holds
// back io.EOF until every request read has been answered on the writer, or
// ctx is done.
type drain struct {
	ctx     context.Context
	mu      sync.Mutex
	pending map[string]bool // ids of requests read and not yet answered
	changed chan struct{}   // closed and replaced when pending shrinks
}

func newDrain(ctx context.Context) *drain {
	return &drain{ctx: ctx, pending: map[string]bool{}, changed: make(chan struct{})}
}

// message is what drain reads of a JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

func (d *drain) saw(line []byte, request bool) {
	var m message
	if json.Unmarshal(bytes.TrimSpace(line), &m) != nil || len(m.ID) == 0 || string(m.ID) == "null" {
		return
	}
	id := string(m.ID)
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case request && m.Method != "":
		d.pending[id] = true
	case !request && m.Method == "" && d.pending[id]:
		delete(d.pending, id)
		close(d.changed)
		d.changed = make(chan struct{})
	}
}

// wait returns once no request is pending or ctx is done.
func (d *drain) wait() {
	for {
		d.mu.Lock()
		n, ch := len(d.pending), d.changed
		d.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-ch:
		case <-d.ctx.Done():
			return
		}
	}
}

// lineTap calls saw for each complete line that passes through it.
type lineTap struct {
	buf []byte
	saw func([]byte)
}

func (t *lineTap) tap(p []byte) {
	t.buf = append(t.buf, p...)
	for {
		i := bytes.IndexByte(t.buf, '\n')
		if i < 0 {
			return
		}
		t.saw(t.buf[:i])
		t.buf = t.buf[i+1:]
	}
}

type drainReader struct {
	r   io.Reader
	d   *drain
	tap lineTap
}

func (r *drainReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.tap.tap(p[:n])
	if err == io.EOF {
		if len(r.tap.buf) > 0 { // a last message without its newline
			r.tap.saw(r.tap.buf)
			r.tap.buf = nil
		}
		if n > 0 {
			return n, nil // give the data first; EOF comes on the next call
		}
		r.d.wait()
	}
	return n, err
}

func (r *drainReader) Close() error { return nil }

type drainWriter struct {
	mu  sync.Mutex
	w   io.Writer
	tap lineTap
}

func (w *drainWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.w.Write(p)
	w.tap.tap(p[:n])
	return n, err
}

func (w *drainWriter) Close() error { return nil }

// drained wraps stdin and stdout so that the end of stdin waits for the
// answers to the requests already read.
func drained(ctx context.Context, stdin io.Reader, stdout io.Writer) (io.ReadCloser, io.WriteCloser) {
	d := newDrain(ctx)
	r := &drainReader{r: stdin, d: d}
	r.tap.saw = func(l []byte) { d.saw(l, true) }
	w := &drainWriter{w: stdout}
	w.tap.saw = func(l []byte) { d.saw(l, false) }
	return r, w
}
