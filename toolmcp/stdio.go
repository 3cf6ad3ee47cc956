package toolmcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxStdioLine bounds one message on stdin, in bytes. A longer line is
// answered with a JSON-RPC error and skipped.
const MaxStdioLine = 4 << 20

// ServeStdio serves srv to one client over stdin and stdout, which carry
// newline-delimited JSON-RPC messages, until stdin ends (nil) or ctx is
// done (ctx's error).
//
// Every line is checked before the SDK sees it: a line that is not JSON
// gets a parse error (-32700), and a batch, a line over MaxStdioLine, or
// something that is not a JSON-RPC message gets an invalid-request error
// (-32600); the server keeps serving. The id of each request is replaced by
// one of the server's own on the way in and put back, byte for byte, on
// the way out, so a client gets its id back whatever its form (1.0, 1e2,
// -0, escaped strings, integers past 2^53).
//
// At the end of stdin it first answers the requests already read, so a
// client may write its requests and close its end. It never closes stdin
// or stdout; a read of stdin may outlive ServeStdio by as long as stdin
// stays open.
func ServeStdio(ctx context.Context, srv *mcp.Server, stdin io.Reader, stdout io.Writer) error {
	g := &gate{ctx: ctx, w: stdout, orig: map[int64]json.RawMessage{}, byOrig: map[string]int64{}, changed: make(chan struct{})}
	pr, pw := io.Pipe()
	go g.pump(stdin, pw)
	t := &mcp.IOTransport{Reader: pr, Writer: (*gateWriter)(g), MaxLineLength: 2 * MaxStdioLine}
	err := srv.Run(ctx, t)
	pr.CloseWithError(errStdioDone) // stops the pump at its next line
	switch {
	case err == nil, errors.Is(err, io.EOF), errors.Is(err, mcp.ErrConnectionClosed) && ctx.Err() == nil:
		return nil
	case ctx.Err() != nil:
		return context.Cause(ctx)
	default:
		return fmt.Errorf("toolmcp: serve stdio: %w", err)
	}
}

var errStdioDone = errors.New("stdio session ended")

// gate stands between stdio and the SDK. In, it checks each line and
// renames request ids; out, it restores them. It also holds back the end
// of stdin until every request read has been answered, or ctx is done.
type gate struct {
	ctx context.Context

	mu      sync.Mutex
	w       io.Writer
	partial []byte                    // an incomplete line written by the SDK
	next    int64                     // the last id given
	orig    map[int64]json.RawMessage // our id → the client's, while pending
	byOrig  map[string]int64          // the client's id → ours, for cancellations
	changed chan struct{}             // closed and replaced when orig shrinks
	// listens are the pending subscriptions/listen requests (protocol
	// 2026-07-28), which last until the client cancels them: the end of
	// stdin does not wait for them.
	listens map[int64]bool
}

// pump reads stdin line by line and passes the admitted lines to pw. At
// the end of stdin it waits for the answers, then closes pw.
func (g *gate) pump(stdin io.Reader, pw *io.PipeWriter) {
	br := bufio.NewReaderSize(stdin, 64<<10)
	for {
		line, tooLong, err := readLine(br, MaxStdioLine)
		switch {
		case tooLong:
			g.reject(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message longer than %d bytes", MaxStdioLine))
		case len(bytes.TrimSpace(line)) > 0:
			if out, ok := g.admit(line); ok {
				if _, werr := pw.Write(append(out, '\n')); werr != nil {
					return // the session ended
				}
			}
		}
		if err != nil {
			g.wait()
			if err == io.EOF {
				err = nil
			}
			pw.CloseWithError(err)
			return
		}
	}
}

// readLine reads one line of at most max bytes, without its newline. A
// longer line is read to its end and dropped, and tooLong is set. err is
// the reader's error (io.EOF at the end), with the last line.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 { // +1: the newline
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// admit checks one line from the client and returns what to pass to the
// SDK, or false when it answered the line with an error itself.
func (g *gate) admit(line []byte) ([]byte, bool) {
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		dec := json.NewDecoder(bytes.NewReader(line))
		var first json.RawMessage
		if dec.Decode(&first) == nil {
			g.reject(nil, jsonrpc.CodeParseError, "more than one JSON value on a line: send one message per line")
		} else {
			g.reject(nil, jsonrpc.CodeParseError, "parse error: the line is not JSON")
		}
		return nil, false
	}
	switch line[0] {
	case '{':
	case '[':
		g.reject(nil, jsonrpc.CodeInvalidRequest, "batches are not supported: send one message per line")
		return nil, false
	default:
		g.reject(nil, jsonrpc.CodeInvalidRequest, "invalid request: a message is a JSON object")
		return nil, false
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		g.reject(nil, jsonrpc.CodeParseError, "parse error: "+err.Error())
		return nil, false
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		g.reject(plainID(fields["id"]), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return nil, false
	}
	req, ok := msg.(*jsonrpc.Request)
	switch {
	case !ok:
		// The client's answer to a request of the server: it has a
		// result or an error, not both.
		_, hasResult := fields["result"]
		_, hasError := fields["error"]
		if hasResult == hasError {
			g.reject(plainID(fields["id"]), jsonrpc.CodeInvalidRequest, "invalid request: a message has a method, or is an answer with a result or an error")
			return nil, false
		}
		return line, true
	case !req.ID.IsValid():
		if req.Method == "notifications/cancelled" {
			return g.renameCancelled(fields, line), true
		}
		return line, true
	}
	g.mu.Lock()
	g.next++
	n := g.next
	g.orig[n] = fields["id"]
	g.byOrig[string(fields["id"])] = n
	if req.Method == "subscriptions/listen" {
		if g.listens == nil {
			g.listens = map[int64]bool{}
		}
		g.listens[n] = true
	}
	g.mu.Unlock()
	fields["id"] = json.RawMessage(strconv.FormatInt(n, 10))
	return marshalFields(fields), true
}

// renameCancelled gives a cancellation the id the SDK knows its request
// by.
func (g *gate) renameCancelled(fields map[string]json.RawMessage, line []byte) []byte {
	var params map[string]json.RawMessage
	if json.Unmarshal(fields["params"], &params) != nil {
		return line
	}
	g.mu.Lock()
	n, ok := g.byOrig[string(params["requestId"])]
	g.mu.Unlock()
	if !ok {
		return line
	}
	params["requestId"] = json.RawMessage(strconv.FormatInt(n, 10))
	fields["params"] = marshalFields(params)
	return marshalFields(fields)
}

// restore gives a response of the SDK the client's id back, and records
// that the request was answered.
func (g *gate) restore(line []byte) []byte {
	var head struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(line, &head) != nil || head.Method != "" {
		return line
	}
	n, err := strconv.ParseInt(string(head.ID), 10, 64)
	if err != nil {
		return line
	}
	orig, ok := g.orig[n]
	if !ok {
		return line
	}
	delete(g.orig, n)
	delete(g.listens, n)
	if g.byOrig[string(orig)] == n {
		delete(g.byOrig, string(orig))
	}
	close(g.changed)
	g.changed = make(chan struct{})
	var fields map[string]json.RawMessage
	if json.Unmarshal(line, &fields) != nil {
		return line
	}
	fields["id"] = orig
	return marshalFields(fields)
}

// reject writes a JSON-RPC error answer for a line the SDK never sees.
func (g *gate) reject(id json.RawMessage, code int, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b := marshalFields(map[string]json.RawMessage{
		"jsonrpc": json.RawMessage(`"2.0"`),
		"id":      id,
		"error":   marshalFields(map[string]json.RawMessage{"code": json.RawMessage(strconv.Itoa(code)), "message": jsonString(message)}),
	})
	g.mu.Lock()
	defer g.mu.Unlock()
	_, _ = g.w.Write(append(b, '\n'))
}

// wait returns once no request is pending but subscriptions, or ctx is
// done.
func (g *gate) wait() {
	for {
		g.mu.Lock()
		n, ch := len(g.orig)-len(g.listens), g.changed
		g.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-ch:
		case <-g.ctx.Done():
			return
		}
	}
}

// gateWriter is the gate as the SDK's writer: it writes whole lines,
// with the clients' ids restored.
type gateWriter gate

func (w *gateWriter) Write(p []byte) (int, error) {
	g := (*gate)(w)
	g.mu.Lock()
	defer g.mu.Unlock()
	g.partial = append(g.partial, p...)
	for {
		i := bytes.IndexByte(g.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		out := append(g.restore(g.partial[:i]), '\n')
		g.partial = g.partial[i+1:]
		if _, err := g.w.Write(out); err != nil {
			return len(p), err
		}
	}
}

func (w *gateWriter) Close() error { return nil }

// plainID returns raw when it is a valid JSON-RPC id (a string or a
// number), nil otherwise.
func plainID(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return raw
	}
	return nil
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// marshalFields encodes an object without escaping HTML characters, so
// that the client's text passes unchanged.
func marshalFields(fields map[string]json.RawMessage) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(fields) // RawMessages already valid: cannot fail
	return bytes.TrimRight(buf.Bytes(), "\n")
}
