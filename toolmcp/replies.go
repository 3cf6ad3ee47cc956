package toolmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxReplies bounds the client's answers to one server's requests (ping,
// roots/list) that are posted at once, one past it not sent; and the
// requests of a stdio server read and not yet answered (pendingReplies).
const maxReplies = 16

// replyLimit bounds the POSTs that carry the client's answers to a
// server's requests, maxReplies at once, timeout each. The SDK
// answers each request of a server in a goroutine of its own, and posts
// the answer without a deadline: a server that sent requests and never
// answered the POSTs had the client hold a connection and a goroutine for
// each, for ever, as many as it sent.
type replyLimit struct {
	base    http.RoundTripper
	slots   chan struct{}
	timeout time.Duration
}

func newReplyLimit(base http.RoundTripper, timeout time.Duration) *replyLimit {
	return &replyLimit{base: base, slots: make(chan struct{}, maxReplies), timeout: timeout}
}

func (t *replyLimit) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || !isReply(req) {
		return t.base.RoundTrip(req)
	}
	select {
	case t.slots <- struct{}{}:
	default:
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, fmt.Errorf("%d answers to the server's requests are in flight already: it takes none", maxReplies)
	}
	ctx, cancel := context.WithTimeoutCause(req.Context(), t.timeout, fmt.Errorf("the server did not take an answer within %s", t.timeout))
	context.AfterFunc(ctx, sync.OnceFunc(func() { <-t.slots }))
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// cancelBody is a response body whose Close ends its request's context.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// maxReplyPeek bounds what isReply reads of a body.
const maxReplyPeek = 4 << 10

// isReply reports whether the body of req, a JSON-RPC message, is a
// response: a "result" or an "error" member comes before any "method".
// The SDK writes id before method, and the client's own ids are numbers,
// so its requests and notifications are told within maxReplyPeek bytes;
// a body not told within them (a long id, which only a server's request
// has) is taken for a response.
func isReply(req *http.Request) bool {
	if req.GetBody == nil {
		return false
	}
	body, err := req.GetBody()
	if err != nil {
		return false
	}
	defer body.Close()
	head, _ := io.ReadAll(io.LimitReader(body, maxReplyPeek))
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false // not one message: a batch, which the client does not send
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return true
		}
		switch tok {
		case "method":
			return false
		case "result", "error":
			return true
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return true // a value cut at maxReplyPeek
		}
	}
	return false
}

// pendingReplies bounds the requests of a stdio server the client has
// read and not yet answered to maxReplies: past them, the connection
// reads nothing more of the server until one is answered (the server's
// writes then wait, as its pipe fills). The SDK answers each request in a
// goroutine of its own, whose answer waits while the server does not read
// its standard input: a server that sent pings and read none of the
// answers had the client hold a goroutine for each, as many as it sent.
// A request whose id is pending already is not counted: the SDK answers
// only the first.
type pendingReplies struct {
	mu     sync.Mutex
	ids    map[jsonrpc.ID]struct{}
	freed  chan struct{} // closed and replaced when one is answered
	closed chan struct{} // closed when the connection is
	once   sync.Once
}

func newPendingReplies() *pendingReplies {
	return &pendingReplies{ids: map[jsonrpc.ID]struct{}{}, freed: make(chan struct{}), closed: make(chan struct{})}
}

// wait waits until fewer than maxReplies requests are pending, ctx is
// done or the connection closed.
func (p *pendingReplies) wait(ctx context.Context) error {
	for {
		p.mu.Lock()
		n, freed := len(p.ids), p.freed
		p.mu.Unlock()
		if n < maxReplies {
			return nil
		}
		select {
		case <-freed:
		case <-ctx.Done():
			return ctx.Err()
		case <-p.closed:
			return mcp.ErrConnectionClosed
		}
	}
}

// add notes a request the client read.
func (p *pendingReplies) add(id jsonrpc.ID) {
	p.mu.Lock()
	p.ids[id] = struct{}{}
	p.mu.Unlock()
}

// done notes the answer to request id written.
func (p *pendingReplies) done(id jsonrpc.ID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.ids[id]; !ok {
		return
	}
	delete(p.ids, id)
	close(p.freed)
	p.freed = make(chan struct{})
}

// close wakes a wait for good.
func (p *pendingReplies) close() { p.once.Do(func() { close(p.closed) }) }
