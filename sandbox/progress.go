package sandbox

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/toolreg/toolreg/tool"

	"github.com/toolreg/toolreg/registry"
)

// A tool's progress (tool.Progress) travels from its worker to the pool
// in progress frames, before the call's response:
//
//	progress = 'P' done:float64be total:float64be message
//
// The pool hands each one to the progress function of the call's context,
// as an in-process call would, so that an MCP client or the agent's
// terminal sees the progress of a sandboxed tool.
const frameProgress = 'P'

const (
	// maxProgressMessage bounds a progress message, in bytes.
	maxProgressMessage = 1 << 10
	// progressEvery is the least time between two progress frames of a
	// call: a tool that reports in a tight loop cannot flood the pipe
	// or the client. The first report and the first report of
	// completion always go (see throttle).
	progressEvery = 50 * time.Millisecond
)

// throttle decides which of one call's progress reports go on: the
// first, the first that says the work is complete (done at or past a
// positive total), and any other progressEvery after the last that
// went. A tool that reports completion again and again, done growing,
// is held to the interval like any other.
type throttle struct {
	last     time.Time
	complete bool // a report of completion went
}

// pass reports whether a report of done of total at now goes on, and
// counts it if so.
func (t *throttle) pass(now time.Time, done, total float64) bool {
	first := !t.complete && total > 0 && done >= total
	if !t.last.IsZero() && now.Sub(t.last) < progressEvery && !first {
		return false
	}
	t.last = now
	t.complete = t.complete || (total > 0 && done >= total)
	return true
}

// progressWriter sends one call's progress on the worker's response pipe.
// The worker writes the call's response through it too, under the same
// lock, and closes it then: a report the tool makes afterwards, from a
// goroutine it left behind, is dropped instead of landing in the stream
// of the next call.
type progressWriter struct {
	mu   sync.Mutex
	out  io.Writer
	buf  []byte
	open bool
	t    throttle
	err  error // of the last write; the serve loop returns it
}

// report is the call's tool.ProgressFunc.
func (p *progressWriter) report(_ context.Context, done, total float64, message string) {
	if !validProgress(done, total) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.open || p.err != nil || !p.t.pass(time.Now(), done, total) {
		return
	}
	var head [17]byte
	head[0] = frameProgress
	binary.BigEndian.PutUint64(head[1:9], math.Float64bits(done))
	binary.BigEndian.PutUint64(head[9:17], math.Float64bits(total))
	p.buf, p.err = writeFrame(p.out, p.buf, head[:], []byte(clipMessage(message)))
}

// respond writes the call's response and closes the call to progress.
func (p *progressWriter) respond(kind registry.Kind, text string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.open = false
	if p.err != nil {
		return p.err
	}
	p.buf, p.err = writeFrame(p.out, p.buf, []byte{frameResponse, byte(kind)}, []byte(text))
	return p.err
}

// start opens the writer for the next call.
func (p *progressWriter) start() {
	p.mu.Lock()
	p.open, p.t = true, throttle{}
	p.mu.Unlock()
}

// validProgress reports whether done and total make a report: finite,
// not negative.
func validProgress(done, total float64) bool {
	for _, v := range [2]float64{done, total} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return false
		}
	}
	return true
}

// clipMessage keeps a message to maxProgressMessage bytes of valid UTF-8.
func clipMessage(m string) string {
	m = strings.ToValidUTF8(m, "\uFFFD")
	if len(m) <= maxProgressMessage {
		return m
	}
	m = m[:maxProgressMessage]
	for !utf8.ValidString(m) {
		m = m[:len(m)-1]
	}
	return m
}

// parseProgress decodes a progress frame; the pool checks it as the
// worker would have made it, since the worker runs the tool's code.
func parseProgress(body []byte) (done, total float64, message string, err error) {
	if len(body) < 17 || body[0] != frameProgress || len(body)-17 > maxProgressMessage {
		return 0, 0, "", errors.New("malformed progress frame")
	}
	done = math.Float64frombits(binary.BigEndian.Uint64(body[1:9]))
	total = math.Float64frombits(binary.BigEndian.Uint64(body[9:17]))
	message = string(body[17:])
	if !validProgress(done, total) || !utf8.ValidString(message) {
		return 0, 0, "", errors.New("malformed progress frame: values out of range")
	}
	return done, total, message, nil
}

// withProgress gives ctx the progress function of p, for the tool.
func withProgress(ctx context.Context, p *progressWriter) context.Context {
	return tool.WithProgress(ctx, p.report)
}
